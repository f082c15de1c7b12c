// npm run ca:demo — writes the demo CA and the demo enterprise's sign-in certificate under DATA_DIR/ca:
//   trusted/piibs-demo-root.pem   the root the server trusts for CA sign-in
//   demo-root.key.pem             its private key (kept, so later runs issue under the same root)
//   enterprise-<uscc>.p12         the enterprise's key and certificate, password Demo@2026 (re-issued each run)
import path from 'node:path';
import { DEMO_ENTERPRISE } from '../demo/base.ts';
import { DEMO_P12_PASSWORD, ensureDemoCa } from './demo-ca.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data'));
const files = ensureDemoCa(dataDir, DEMO_ENTERPRISE, { reissue: true });
const say = (line: string) => process.stdout.write(`${line}\n`);
say(`demo CA in ${files.dir}`);
say(`  trusted root:   ${files.rootCert}${files.written.includes(files.rootCert) ? ' (new)' : ' (kept)'}`);
say(`  root key:       ${files.rootKey}`);
say(`  enterprise:     ${files.enterpriseP12} (password ${DEMO_P12_PASSWORD})`);
say(`  enterprise:     ${DEMO_ENTERPRISE.name}, 统一社会信用代码 ${DEMO_ENTERPRISE.uscc}`);
