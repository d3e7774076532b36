/** Searches and clicks per day of the last 7 days, all of the group's search services together. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { count } from '../format.js';
import { overviewTexts } from './overview-texts.js';

interface Day {
  day: string;
  searches: number;
  clicks: number;
}

export function SearchTraffic(props: { group: string; timezone: string }) {
  const t = overviewTexts();
  const [days, setDays] = useState<Day[] | undefined>(undefined);
  const [services, setServices] = useState<number | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: props.timezone }).format(new Date());
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    void (async () => {
      const listed = await api.get<{ search_services: { id: number }[] }>(`${props.group}/search_services`);
      const reports = await Promise.all(
        listed.search_services.map((service) =>
          api.get<{ days: Day[] }>(
            `${props.group}/search_services/${service.id}/analytics?from=${from}&to=${today}`,
          ),
        ),
      );
      const sums = new Map<string, Day>();
      for (const report of reports)
        for (const day of report.days) {
          const sum = sums.get(day.day) ?? { day: day.day, searches: 0, clicks: 0 };
          sum.searches += day.searches;
          sum.clicks += day.clicks;
          sums.set(day.day, sum);
        }
      if (!cancelled) {
        setServices(listed.search_services.length);
        setDays([...sums.values()].sort((a, b) => a.day.localeCompare(b.day)));
      }
    })().catch(() => {
      if (!cancelled) setDays([]);
    });
    return () => {
      cancelled = true;
    };
  }, [props.group, props.timezone]);
  if (days === undefined) return null;
  if (services === 0) return <p>{t.noServices}</p>;
  const most = Math.max(1, ...days.map((day) => day.searches));
  return (
    <table class="table traffic">
      <thead>
        <tr>
          <th scope="col">{t.day}</th>
          <th scope="col">{t.searches}</th>
          <th scope="col" class="number">
            {t.clicks}
          </th>
        </tr>
      </thead>
      <tbody>
        {days.map((day) => (
          <tr key={day.day}>
            <td>{day.day.slice(5)}</td>
            <td>
              <span class="bar" style={{ width: `${(day.searches / most) * 80}%` }} aria-hidden="true" />
              <span class="bar-value">{count(day.searches)}</span>
            </td>
            <td class="number">{count(day.clicks)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
