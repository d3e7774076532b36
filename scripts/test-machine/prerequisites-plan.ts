/**
 * What `npm test` must install before it runs (docs/operations.md, Running the tests): the
 * decision only, from facts about the machine, so that it can be checked without touching one.
 * Debian and Ubuntu get their packages through apt-get; on any other system nothing is run and the
 * plan names the packages and the command to install them by hand.
 */

/** What the suite needs beyond `npm ci`: a browser for the rendering, widget and console tests,
 * and a PostgreSQL server for the PostgreSQL pass. */
export type Prerequisite = 'chromium' | 'postgresql';

export interface MachineFacts {
  /** `process.platform`. */
  platform: string;
  /** The text of /etc/os-release, or undefined where there is none (macOS). */
  osRelease: string | undefined;
  /** The prerequisites not found on the machine. */
  missing: Prerequisite[];
  /** Whether the process runs as root: otherwise apt-get runs through sudo. */
  root: boolean;
}

export type PrerequisitesPlan =
  | { kind: 'ready' }
  /** Commands to run in order, each a program and its arguments. */
  | { kind: 'install'; system: string; packages: string[]; commands: string[][] }
  /** Nothing can be installed here: what to install by hand, and the command to do it. */
  | { kind: 'manual'; system: string; packages: string[]; command: string };

/** Debian's packages: `fonts-noto-cjk` gives the browser Japanese glyphs for screenshots. */
const DEBIAN_PACKAGES: Record<Prerequisite, string[]> = {
  chromium: ['chromium', 'fonts-noto-cjk'],
  postgresql: ['postgresql'],
};

/** Ubuntu ships no `chromium` package of its own: `chromium-browser` is it there. */
const UBUNTU_PACKAGES: Record<Prerequisite, string[]> = {
  chromium: ['chromium-browser', 'fonts-noto-cjk'],
  postgresql: ['postgresql'],
};

interface ManualSystem {
  name: string;
  packages: Record<Prerequisite, string[]>;
  /** The command installing `packages`. */
  command(packages: string[]): string;
}

const FEDORA: ManualSystem = {
  name: 'Fedora',
  packages: { chromium: ['chromium', 'google-noto-sans-cjk-fonts'], postgresql: ['postgresql-server'] },
  command: (packages) => `sudo dnf install -y ${packages.join(' ')}`,
};

const MANUAL_SYSTEMS: Record<string, ManualSystem> = {
  fedora: FEDORA,
  rhel: { ...FEDORA, name: 'Red Hat Enterprise Linux' },
  arch: {
    name: 'Arch Linux',
    packages: { chromium: ['chromium', 'noto-fonts-cjk'], postgresql: ['postgresql'] },
    command: (packages) => `sudo pacman -S --needed ${packages.join(' ')}`,
  },
  alpine: {
    name: 'Alpine Linux',
    packages: { chromium: ['chromium', 'font-noto-cjk'], postgresql: ['postgresql'] },
    command: (packages) => `sudo apk add ${packages.join(' ')}`,
  },
  opensuse: {
    name: 'openSUSE',
    packages: { chromium: ['chromium', 'noto-sans-cjk-fonts'], postgresql: ['postgresql-server'] },
    command: (packages) => `sudo zypper install -y ${packages.join(' ')}`,
  },
};

const MACOS: ManualSystem = {
  name: 'macOS',
  packages: { chromium: ['chromium'], postgresql: ['postgresql@17'] },
  command: (packages) =>
    packages
      .map((name) => (name === 'chromium' ? 'brew install --cask chromium' : `brew install ${name}`))
      .join(' && '),
};

export function planPrerequisites(facts: MachineFacts): PrerequisitesPlan {
  if (facts.missing.length === 0) return { kind: 'ready' };
  const release = parseOsRelease(facts.osRelease ?? '');
  const family = [release.ID ?? '', ...(release.ID_LIKE ?? '').split(/\s+/)].filter((id) => id !== '');
  const system = release.PRETTY_NAME ?? release.NAME ?? facts.platform;
  if (facts.platform === 'linux' && (family.includes('debian') || family.includes('ubuntu'))) {
    const table = release.ID === 'ubuntu' || family.includes('ubuntu') ? UBUNTU_PACKAGES : DEBIAN_PACKAGES;
    const packages = facts.missing.flatMap((item) => table[item]);
    const asRoot = facts.root ? [] : ['sudo'];
    return {
      kind: 'install',
      system,
      packages,
      commands: [
        [...asRoot, 'apt-get', 'update'],
        [...asRoot, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', ...packages],
      ],
    };
  }
  const manual =
    facts.platform === 'darwin'
      ? MACOS
      : family.map((id) => MANUAL_SYSTEMS[id]).find((entry) => entry !== undefined);
  if (manual === undefined)
    return {
      kind: 'manual',
      system,
      packages: facts.missing.flatMap((item) => DEBIAN_PACKAGES[item]),
      command: `install your system's packages for: ${facts.missing.join(', ')} (Debian's names are listed)`,
    };
  const packages = facts.missing.flatMap((item) => manual.packages[item]);
  return {
    kind: 'manual',
    system: facts.platform === 'darwin' ? manual.name : system,
    packages,
    command: manual.command(packages),
  };
}

/** The KEY=value lines of os-release(5), quotes removed. */
export function parseOsRelease(text: string): Record<string, string | undefined> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match === null) continue;
    fields[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return fields;
}
