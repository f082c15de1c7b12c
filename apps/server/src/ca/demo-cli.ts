// npm run ca:demo — writes the demo CA and the demo enterprise's sign-in certificate under DATA_DIR/ca:
//   trusted/piibs-demo-root.pem   the root the server trusts for CA sign-in
//   demo-root.key.pem             its private key (kept, so later runs issue under the same root)
//   enterprise-<uscc>.p12         the enterprise's key and certificate, password Demo@2026 (re-issued each run)
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO_ENTERPRISE } from '../demo/base.ts';
import { DEMO_P12_PASSWORD, demoCaDir, ensureDemoCa } from './demo-ca.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data'));

/** The code of the enterprise certificate already there: a data directory keeps its demo enterprise's code. */
function existingUscc(): string | undefined {
  try {
    const codes = readdirSync(demoCaDir(dataDir)).flatMap(
      (name) => /^enterprise-([0-9A-Z]{18})\.p12$/.exec(name)?.[1] ?? [],
    );
    return codes.length === 1 ? codes[0] : undefined;
  } catch {
    return undefined;
  }
}

const enterprise = { ...DEMO_ENTERPRISE, uscc: existingUscc() ?? DEMO_ENTERPRISE.uscc };
const files = ensureDemoCa(dataDir, enterprise, { reissue: true });
const say = (line: string) => process.stdout.write(`${line}\n`);
say(`demo CA in ${files.dir}`);
say(`  trusted root:   ${files.rootCert}${files.written.includes(files.rootCert) ? ' (new)' : ' (kept)'}`);
say(`  root key:       ${files.rootKey}`);
say(`  enterprise:     ${files.enterpriseP12} (password ${DEMO_P12_PASSWORD})`);
say(`  enterprise:     ${enterprise.name}, 统一社会信用代码 ${enterprise.uscc}`);
