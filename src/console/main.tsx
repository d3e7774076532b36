/**
 * The management console in the browser (docs/console.md): a client of the documented management
 * API, served by `kumo serve` at /console/ and built by esbuild from this folder.
 */
// The base styles first: each area's stylesheet, imported with its pages, comes after them.
import './styles.css';
import { render } from 'preact';
import { locale } from './i18n.js';
import { interceptLinks } from './router.js';
import { App } from './shell/app.js';

document.documentElement.lang = locale();
interceptLinks();
render(<App />, document.getElementById('console')!);
