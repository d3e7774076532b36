/**
 * `npm test` installs what the suite needs on Debian and Ubuntu and, elsewhere, stops naming the
 * packages and the command (docs/operations.md, Running the tests). The decision is checked on
 * given machine facts, so no package manager runs; the script itself runs on this machine, where
 * everything is present.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { planPrerequisites } from '../../scripts/test-machine/prerequisites-plan.js';

const DEBIAN_13 = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nID=debian\n';
const UBUNTU_24 = 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const MINT = 'PRETTY_NAME="Linux Mint 22"\nID=linuxmint\nID_LIKE="ubuntu debian"\n';
const FEDORA = 'NAME="Fedora Linux"\nPRETTY_NAME="Fedora Linux 41 (Workstation Edition)"\nID=fedora\n';
const ROCKY = 'PRETTY_NAME="Rocky Linux 9.4 (Blue Onyx)"\nID="rocky"\nID_LIKE="rhel centos fedora"\n';

describe('what the test command installs', () => {
  it('installs nothing when Chromium and PostgreSQL are present, on any system', () => {
    for (const [platform, osRelease] of [
      ['linux', DEBIAN_13],
      ['darwin', undefined],
      ['linux', FEDORA],
    ] as const)
      assert.deepEqual(planPrerequisites({ platform, osRelease, missing: [], root: false }), {
        kind: 'ready',
      });
  });

  it('on Debian as root: one apt-get update, then one install of every missing package', () => {
    assert.deepEqual(
      planPrerequisites({
        platform: 'linux',
        osRelease: DEBIAN_13,
        missing: ['chromium', 'postgresql'],
        root: true,
      }),
      {
        kind: 'install',
        system: 'Debian GNU/Linux 13 (trixie)',
        packages: ['chromium', 'fonts-noto-cjk', 'postgresql'],
        commands: [
          ['apt-get', 'update'],
          [
            'env',
            'DEBIAN_FRONTEND=noninteractive',
            'apt-get',
            'install',
            '-y',
            'chromium',
            'fonts-noto-cjk',
            'postgresql',
          ],
        ],
      },
    );
  });

  it('installs only what is missing, through sudo when not root', () => {
    const plan = planPrerequisites({
      platform: 'linux',
      osRelease: DEBIAN_13,
      missing: ['postgresql'],
      root: false,
    });
    assert.equal(plan.kind, 'install');
    assert.deepEqual(plan.kind === 'install' && plan.commands, [
      ['sudo', 'apt-get', 'update'],
      ['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'postgresql'],
    ]);
  });

  it("uses Ubuntu's browser package on Ubuntu and on systems built on it", () => {
    for (const osRelease of [UBUNTU_24, MINT]) {
      const plan = planPrerequisites({ platform: 'linux', osRelease, missing: ['chromium'], root: true });
      assert.equal(plan.kind, 'install');
      assert.deepEqual(plan.kind === 'install' && plan.packages, ['chromium-browser', 'fonts-noto-cjk']);
    }
  });

  it('on macOS runs nothing and names the Homebrew command', () => {
    assert.deepEqual(
      planPrerequisites({
        platform: 'darwin',
        osRelease: undefined,
        missing: ['chromium', 'postgresql'],
        root: false,
      }),
      {
        kind: 'manual',
        system: 'macOS',
        packages: ['chromium', 'postgresql@17'],
        command: 'brew install --cask chromium && brew install postgresql@17',
      },
    );
  });

  it('on Fedora and its relatives runs nothing and names the dnf command', () => {
    assert.deepEqual(
      planPrerequisites({ platform: 'linux', osRelease: FEDORA, missing: ['postgresql'], root: true }),
      {
        kind: 'manual',
        system: 'Fedora Linux 41 (Workstation Edition)',
        packages: ['postgresql-server'],
        command: 'sudo dnf install -y postgresql-server',
      },
    );
    const rocky = planPrerequisites({
      platform: 'linux',
      osRelease: ROCKY,
      missing: ['chromium'],
      root: true,
    });
    assert.equal(
      rocky.kind === 'manual' && rocky.command,
      'sudo dnf install -y chromium google-noto-sans-cjk-fonts',
    );
  });

  it('on a system it does not know runs nothing and names what is missing', () => {
    const plan = planPrerequisites({
      platform: 'freebsd',
      osRelease: undefined,
      missing: ['postgresql'],
      root: true,
    });
    assert.equal(plan.kind, 'manual');
    assert.match(plan.kind === 'manual' ? plan.command : '', /postgresql/);
  });
});

describe('the prerequisites step on this machine', () => {
  it('finds Chromium and PostgreSQL, says where, and lets the tests run', () => {
    const script = path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../scripts/test-machine/install-prerequisites.js',
    );
    const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
    assert.match(output, /^test prerequisites: chromium present at \S+$/m);
    assert.match(output, /^test prerequisites: postgresql present at \S+$/m);
    assert.match(output, /^test prerequisites: ready$/m);
  });
});
