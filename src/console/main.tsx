/**
 * The management console in the browser (docs/console.md): a client of the documented management
 * API, served by `kumo serve` at /console/ and built by esbuild from this folder.
 */
import { render } from 'preact';
import { locale } from './i18n.js';
import { interceptLinks } from './router.js';
import { App } from './shell/app.js';
import './styles.css';

document.documentElement.lang = locale();
interceptLinks();
render(<App />, document.getElementById('console')!);
