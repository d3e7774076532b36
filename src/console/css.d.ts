/** Stylesheets imported by the console's entry are bundled by esbuild into console.css. */
declare module '*.css';
