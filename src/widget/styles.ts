/**
 * The widget's one stylesheet (docs/reference/widget.md, Theming). The `:host` rule resets every
 * property with `!important`, so rules of the page such as `* { all: unset }` or a huge font size
 * cannot reach inside; colours, font and radius come from `--kumo-*` custom properties, which do
 * inherit through the shadow boundary. Sizes are in px and em of the widget's own font size.
 */

const CSS = `
:host{all:initial!important;display:block!important;position:relative!important;box-sizing:border-box!important;
font-family:var(--kumo-font,system-ui,-apple-system,"Segoe UI",Roboto,"Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans JP",Meiryo,sans-serif)!important;
font-size:var(--kumo-font-size,16px)!important;line-height:1.5!important;color:var(--kumo-text,#1f2328)!important;
text-align:start!important;-webkit-text-size-adjust:100%!important;
--a:var(--kumo-accent,#1a56db);--t:var(--kumo-text,#1f2328);--m:var(--kumo-muted,#59636e);--bg:var(--kumo-background,#fff);
--s:var(--kumo-surface,#f6f8fa);--b:var(--kumo-border,#d1d9e0);--mk:var(--kumo-mark,#fff1a8);--r:var(--kumo-radius,8px)}
:host([hidden]){display:none!important}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
[part~=root]{position:relative;max-width:48em}
.page[part~=root]{max-width:72em;margin:0 auto}
button,input,select{font:inherit;color:inherit;margin:0}
button{cursor:pointer}
:focus-visible{outline:2px solid var(--a);outline-offset:2px}
a{color:var(--a);text-decoration:none}
a:hover{text-decoration:underline}
svg{width:1.25em;height:1.25em;fill:currentColor;flex:none}
[part~=label],.sr-only{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
[part~=form]{position:relative;margin:0}
.field{display:flex;align-items:center;gap:.25em;min-height:3em;padding:0 .25em 0 .75em;background:var(--bg);
border:1px solid var(--b);border-radius:var(--r);box-shadow:0 1px 2px rgba(31,35,40,.06);transition:border-color .15s,box-shadow .15s}
.field:focus-within{border-color:var(--a);box-shadow:0 0 0 3px color-mix(in srgb,var(--a) 22%,transparent)}
.field>svg{color:var(--m)}
[part~=input]{flex:1;min-width:0;height:2.75em;padding:0 .25em;border:0;background:transparent;outline:0;font-size:1em;-webkit-appearance:none;appearance:none}
[part~=input]::-webkit-search-cancel-button,[part~=input]::-webkit-search-decoration{-webkit-appearance:none;display:none}
[part~=input]::placeholder{color:var(--m);opacity:1}
[part~=clear]{display:grid;place-items:center;width:2.25em;height:2.25em;padding:0;border:0;border-radius:50%;background:none;color:var(--m)}
[part~=clear]:hover{background:var(--s);color:var(--t)}
[part~=submit]{height:2.375em;padding:0 1.1em;border:0;border-radius:calc(var(--r) - 2px);background:var(--a);color:#fff;font-weight:600;white-space:nowrap}
[part~=submit]:hover{filter:brightness(1.1)}
[part~=listbox]{position:absolute;z-index:2147483000;left:0;right:0;top:calc(100% + 4px);margin:0;padding:.25em 0;list-style:none;
background:var(--bg);border:1px solid var(--b);border-radius:var(--r);box-shadow:0 8px 24px rgba(31,35,40,.14);max-height:20em;overflow-y:auto}
[part~=option]{padding:.5em 1em;cursor:pointer;overflow-wrap:anywhere}
[part~=option] b{font-weight:600}
[part~=option][aria-selected=true]{background:color-mix(in srgb,var(--a) 8%,var(--bg));box-shadow:inset 3px 0 var(--a)}
[part~=panel]{margin-top:1.25em}
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5em 1em}
[part~=status]{display:flex;align-items:center;min-height:2.25em;color:var(--m);font-size:.875em;overflow-wrap:anywhere}
.sort{display:flex;align-items:center;gap:.5em;color:var(--m);font-size:.875em}
[part~=sort]{height:2.25em;padding:0 .5em;border:1px solid var(--b);border-radius:calc(var(--r) - 2px);background:var(--bg);color:var(--t)}
[part~=correction]{margin:.75em 0 0;overflow-wrap:anywhere;padding:.625em .875em;background:var(--s);border-radius:var(--r)}
[part~=correction-link]{text-decoration:underline;font-weight:600}
[part~=tabs]{display:flex;gap:.25em;margin-top:.75em;border-bottom:1px solid var(--b);overflow-x:auto;scrollbar-width:thin}
[part~=tab]{flex:none;padding:.5em .875em;border:0;border-bottom:2px solid transparent;background:none;color:var(--m);font-weight:500;margin-bottom:-1px}
[part~=tab]:hover{color:var(--t)}
[part~=tab][aria-selected=true]{color:var(--a);border-bottom-color:var(--a);font-weight:600}
.body{display:block}
[part~=facets]{margin-top:1em;font-size:.875em}
h2,h3{font-size:inherit;margin:0}
.facets-title,.related-title{margin:0 0 .5em;color:var(--m);font-size:.8125em;font-weight:600;text-transform:uppercase;letter-spacing:.04em}
ul,ol{margin:0;padding:0;list-style:none}
[part~=facets] ul ul{margin-left:.875em;padding-left:.5em;border-left:1px solid var(--b)}
[part~=facet]{display:flex;width:100%;align-items:center;justify-content:space-between;gap:.75em;padding:.375em .625em;border:0;border-radius:calc(var(--r) - 2px);background:none;text-align:start;color:var(--t)}
[part~=facet]:hover{background:var(--s)}
[part~=facet][aria-pressed=true]{background:color-mix(in srgb,var(--a) 10%,var(--bg));color:var(--a);font-weight:600}
.facet-title{overflow-wrap:anywhere}
[part~=facet-count]{flex:none;min-width:1.75em;padding:0 .4em;border-radius:1em;background:var(--s);color:var(--m);font-size:.875em;text-align:center;font-variant-numeric:tabular-nums}
:not(.page)>.body>[part~=facets]>ul{display:flex;flex-wrap:wrap;gap:.25em .5em}
:not(.page)>.body>[part~=facets] li:has(ul){flex-basis:100%}
.main{min-width:0;transition:opacity .15s}
[aria-busy=true] .main{opacity:.55}
[part~=results]{margin-top:.5em}
[part~=result]{padding:1em 0;border-bottom:1px solid var(--b)}
[part~=result]:last-child{border-bottom:0}
.heading{display:flex;align-items:baseline;gap:.5em;font-size:1.125em;font-weight:600;line-height:1.35}
[part~=result-title]{overflow-wrap:anywhere}
[part~=result-title]:visited{color:color-mix(in srgb,var(--a) 70%,#6e2a9e)}
[part~=badge]{flex:none;position:relative;top:-.1em;padding:.1em .45em;border-radius:4px;font-size:.6875em;font-weight:700;letter-spacing:.03em;background:#fde8e8;color:#9b1c1c}
[part~=badge][data-doctype=doc]{background:#e1effe;color:#1e429f}
[part~=badge][data-doctype=xls]{background:#def7ec;color:#03543f}
[part~=badge][data-doctype=ppt]{background:#feecdc;color:#8a2c0d}
.meta{display:flex;flex-wrap:wrap;gap:0 .75em;margin-top:.125em;font-size:.8125em;color:var(--m)}
[part~=result-url]{color:#116329;overflow-wrap:anywhere;min-width:0}
[part~=result-snippet]{margin:.375em 0 0;font-size:.9375em;overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
[part~=mark]{background:var(--mk);color:inherit;border-radius:2px;padding:0 .05em}
[part~=result-title] [part~=mark]{background:none;color:inherit;text-decoration:underline;text-decoration-color:var(--mk);text-decoration-thickness:.25em;text-underline-offset:-.05em;text-decoration-skip-ink:none}
[part~=pager]{display:flex;flex-wrap:wrap;align-items:center;gap:.375em;margin:1.25em 0 .5em}
[part~=page]{min-width:2.5em;height:2.5em;padding:0 .5em;border:1px solid var(--b);border-radius:calc(var(--r) - 2px);background:var(--bg);color:var(--t);font-variant-numeric:tabular-nums}
[part~=page]:hover:not(:disabled){border-color:var(--a);color:var(--a)}
[part~=page][aria-current=page]{background:var(--a);border-color:var(--a);color:#fff;font-weight:600}
[part~=page]:disabled{opacity:.45;cursor:default}
.gap{color:var(--m);padding:0 .125em}
[part~=related]{margin-top:1.25em;padding-top:1em;border-top:1px solid var(--b)}
[part~=related] ul{display:flex;flex-wrap:wrap;gap:.5em}
[part~=related-link]{display:inline-block;max-width:100%;overflow-wrap:anywhere;padding:.3em .875em;border:1px solid var(--b);border-radius:2em;font-size:.875em;color:var(--t)}
[part~=related-link]:hover{border-color:var(--a);color:var(--a);text-decoration:none}
[part~=empty]{padding:1.5em 0 .5em;color:var(--m);overflow-wrap:anywhere}
[part~=empty] p{margin:0 0 .5em}
.empty-title{color:var(--t);font-size:1.125em;font-weight:600}
[part~=empty] ul{list-style:disc;padding-left:1.25em}
[part~=error]{margin-top:.75em;padding:1em;border:1px solid #f1aeb5;border-radius:var(--r);background:#fff5f5;color:#8c1d18}
[part~=error] p{margin:0}
[part~=retry]{margin-top:.75em;padding:.4em 1em;border:1px solid currentColor;border-radius:calc(var(--r) - 2px);background:var(--bg);color:inherit;font-weight:600}
@media (min-width:800px){.page>[part~=panel] .body{display:grid;grid-template-columns:15em minmax(0,1fr);gap:2em;align-items:start}
.page>[part~=panel] [part~=facets]{position:sticky;top:1em}
.page .body>[part~=facets][hidden]+.main{grid-column:1/-1}}
@media (max-width:480px){[part~=submit]{padding:0 .8em}.field{padding-left:.5em}}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{transition:none!important;animation:none!important;scroll-behavior:auto!important}}
@media (forced-colors:active){[part~=option][aria-selected=true],[part~=tab][aria-selected=true],[part~=facet][aria-pressed=true]{outline:2px solid Highlight}}
`;

let shared: CSSStyleSheet | null = null;

/** Gives `root` the stylesheet: one constructed sheet shared by every widget, else a `<style>`. */
export function adoptStyles(root: ShadowRoot): void {
  try {
    shared ??= new CSSStyleSheet();
    if (shared.cssRules.length === 0) shared.replaceSync(CSS);
    root.adoptedStyleSheets = [shared];
  } catch {
    const style = document.createElement('style');
    style.textContent = CSS;
    root.appendChild(style);
  }
}
