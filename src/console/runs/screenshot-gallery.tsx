/**
 * A finished run's screenshots (docs/console.md, Run page): thumbnails of the pages, loaded as the
 * list scrolls into view; a click opens the full-size image in a dialog with the page's address,
 * and Previous / Next (or the arrow keys) step through the run's pages. A run whose setting took
 * no screenshots asks for none: the run says so before any image is requested.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { API_BASE } from '../api.js';
import { Section } from '../components/page.js';
import { count } from '../format.js';
import { useResource } from '../use-resource.js';
import { runsTexts } from './runs-texts.js';

interface Shot {
  row_id: number;
  url: string;
}

const PAGE = 24;

export function ScreenshotGallery(props: { runPath: string; takesScreenshots: boolean }) {
  const t = runsTexts();
  if (!props.takesScreenshots) {
    return (
      <Section title={t.screenshots}>
        <p>{t.noScreenshots}</p>
      </Section>
    );
  }
  return <Gallery runPath={props.runPath} />;
}

function Gallery(props: { runPath: string }) {
  const t = runsTexts();
  const [limit, setLimit] = useState(PAGE);
  const shots = useResource<{ matched: number; screenshots: Shot[] }>(
    `${props.runPath}/screenshots?limit=${limit}`,
  );
  const [openIndex, setOpenIndex] = useState<number | undefined>(undefined);
  const [missing, setMissing] = useState<ReadonlySet<number>>(new Set());
  if (shots.problem !== undefined || shots.data === undefined) return null;
  const { matched } = shots.data;
  const visible = shots.data.screenshots.filter((shot) => !missing.has(shot.row_id));
  const image = (shot: Shot) => `${API_BASE}${props.runPath}/screenshots/${shot.row_id}`;
  return (
    <Section title={t.screenshots}>
      {visible.length === 0 ? (
        <p>{t.noScreenshots}</p>
      ) : (
        <>
          <p class="hint">{t.screenshotCount(count(matched))}</p>
          <ul class="gallery">
            {visible.map((shot, index) => (
              <li key={shot.row_id}>
                <button type="button" class="thumb" onClick={() => setOpenIndex(index)}>
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
        </>
      )}
      {visible.length > 0 && matched > shots.data.screenshots.length && (
        <button type="button" class="button" onClick={() => setLimit(limit + PAGE)}>
          {t.moreScreenshots}
        </button>
      )}
      <ShotDialog shots={visible} index={openIndex} image={image} onIndex={setOpenIndex} />
    </Section>
  );
}

/** The full-size screenshot with its page's address; arrow keys and buttons step through the list. */
function ShotDialog(props: {
  shots: Shot[];
  index: number | undefined;
  image: (shot: Shot) => string;
  onIndex: (index: number | undefined) => void;
}) {
  const t = runsTexts();
  const { shots, index, onIndex } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const open = index === undefined ? undefined : shots[index];
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open !== undefined && !element.open) element.showModal();
    if (open === undefined && element.open) element.close();
  }, [open]);
  // What is on screen, read by the key handler: effects run after the screen is painted, so a
  // handler that kept the index of its render would step from a page already left when two keys
  // come quickly.
  const shown = useRef({ index, count: shots.length });
  shown.current = { index, count: shots.length };
  const step = (by: number) => {
    const { index: from, count } = shown.current;
    if (from === undefined) return;
    const next = from + by;
    if (next >= 0 && next < count) {
      shown.current = { index: next, count };
      onIndex(next);
    }
  };
  const isOpen = open !== undefined;
  useEffect(() => {
    if (!isOpen) return;
    // On the document, not the dialog: a button disabled at the list's end drops the focus to it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft') step(-1);
      else if (event.key === 'ArrowRight') step(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isOpen]);
  return (
    <dialog
      ref={dialog}
      class="dialog dialog-wide"
      aria-label={open === undefined ? t.screenshots : t.screenshotOf(open.url)}
      onClose={() => onIndex(undefined)}
    >
      {open !== undefined && index !== undefined && (
        <>
          <p class="shot-head">
            <a class="shot-url" href={open.url} target="_blank" rel="noopener noreferrer">
              {open.url}
            </a>{' '}
            <span class="hint">{t.shotPosition(index + 1, shots.length)}</span>
          </p>
          <img class="full-shot" src={props.image(open)} alt={t.screenshotOf(open.url)} />
          <div class="dialog-actions">
            <button type="button" class="button" disabled={index === 0} onClick={() => step(-1)}>
              {t.previousShot}
            </button>
            <button
              type="button"
              class="button"
              disabled={index === shots.length - 1}
              onClick={() => step(1)}
            >
              {t.nextShot}
            </button>
            <button type="button" class="button" onClick={() => onIndex(undefined)}>
              {t.close}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
