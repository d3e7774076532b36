/** A schedule in words in the current language ("Every day at 04:30", "毎日 04:30"). */
import { type ScheduleWords, settingsTexts } from './settings-texts.js';

export function scheduleText(schedule: ScheduleWords): string {
  return settingsTexts().scheduleText(schedule);
}
