/**
 * Which elements hold a page's template by their markup (docs/reference/site-search.md, Page
 * templates): the HTML landmarks of navigation, banner, page footer and side content, as ARIA
 * maps them.
 */

/** What decides whether a header, footer or aside is the page's. */
export interface LandmarkContext {
  /** Open article, aside, main, nav and section elements. */
  sectioningDepth: number;
  /** Open main elements and elements with role=main. */
  mainDepth: number;
}

const TEMPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);

/**
 * Whether an element is template: nav always; header, footer and aside only at page level
 * (ARIA's banner, contentinfo and complementary), since an article's header holds its title and
 * an aside inside the main text is a footnote or a note; or any element with one of those roles.
 */
export function isLandmark(name: string, role: string, context: LandmarkContext): boolean {
  if (TEMPLATE_ROLES.has(role)) return true;
  if (role !== '' && role !== 'presentation' && role !== 'none') return false;
  if (name === 'nav') return true;
  const pageLevel = context.sectioningDepth === 0 && context.mainDepth === 0;
  return (name === 'header' || name === 'footer' || name === 'aside') && pageLevel;
}
