/** File names of a run's artifacts (docs/reference/downloads.md, Downloads). */
export const ArtifactFile = {
  urlList: 'url_list.csv.gz',
  objects: 'crawl_objects.tar.gz',
  linkList: 'link_list.csv.gz',
} as const;

export type ArtifactFileName = (typeof ArtifactFile)[keyof typeof ArtifactFile];

export const ARTIFACT_FILE_NAMES: readonly ArtifactFileName[] = [
  ArtifactFile.urlList,
  ArtifactFile.objects,
  ArtifactFile.linkList,
];

export function isArtifactFileName(name: string): name is ArtifactFileName {
  return (ARTIFACT_FILE_NAMES as readonly string[]).includes(name);
}
