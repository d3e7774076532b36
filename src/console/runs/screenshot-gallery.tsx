/**
 * A finished run's screenshots (docs/console.md, Run page): thumbnails of the pages, loaded as the
 * list scrolls into view; a click opens the full-size image in a dialog.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { API_BASE } from '../api.js';
import { Section } from '../components/page.js';
import { useResource } from '../use-resource.js';
import { runsTexts } from './runs-texts.js';

interface Shot {
  row_id: number;
  url: string;
}

const PAGE = 24;

export function ScreenshotGallery(props: { runPath: string }) {
  const t = runsTexts();
  const [limit, setLimit] = useState(PAGE);
  const shots = useResource<{ matched: number; screenshots: Shot[] }>(
    `${props.runPath}/screenshots?limit=${limit}`,
  );
  const [open, setOpen] = useState<Shot | undefined>(undefined);
  const [missing, setMissing] = useState<ReadonlySet<number>>(new Set());
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open !== undefined && !element.open) element.showModal();
    if (open === undefined && element.open) element.close();
  }, [open]);
  if (shots.problem !== undefined || shots.data === undefined) return null;
  const visible = shots.data.screenshots.filter((shot) => !missing.has(shot.row_id));
  const image = (shot: Shot) => `${API_BASE}${props.runPath}/screenshots/${shot.row_id}`;
  return (
    <Section title={t.screenshots}>
      {visible.length === 0 ? (
        <p>{t.noScreenshots}</p>
      ) : (
        <ul class="gallery">
          {visible.map((shot) => (
            <li key={shot.row_id}>
              <button type="button" class="thumb" onClick={() => setOpen(shot)}>
                <img
                  src={image(shot)}
                  alt={t.screenshotOf(shot.url)}
                  loading="lazy"
                  onError={() => setMissing((previous) => new Set([...previous, shot.row_id]))}
                />
                <span class="thumb-url">{shot.url}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {shots.data.matched > limit && (
        <button type="button" class="button" onClick={() => setLimit(limit + PAGE)}>
          {t.moreScreenshots}
        </button>
      )}
      <dialog
        ref={dialog}
        class="dialog dialog-wide"
        aria-label={open === undefined ? t.screenshots : t.screenshotOf(open.url)}
        onClose={() => setOpen(undefined)}
      >
        {open !== undefined && (
          <>
            <p class="verdict-url">{open.url}</p>
            <img class="full-shot" src={image(open)} alt={t.screenshotOf(open.url)} />
            <div class="dialog-actions">
              <button type="button" class="button" onClick={() => setOpen(undefined)}>
                {t.close}
              </button>
            </div>
          </>
        )}
      </dialog>
    </Section>
  );
}
