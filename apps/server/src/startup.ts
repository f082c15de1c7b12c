import { ensureDemoCa } from './ca/demo-ca.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { seedDemoApplications } from './demo/applications.ts';
import {
  DEMO_ENTERPRISE,
  DEMO_PASSWORD,
  DEMO_USERS,
  demoEnterpriseUscc,
  seedDemo,
  seedDemoCustomers,
} from './demo/base.ts';
import { seedDemoNotifications } from './demo/notifications.ts';
import { seedDemoPolicies } from './demo/policies.ts';
import { seedDemoPolicyChanges } from './demo/policy-changes.ts';
import { seedDemoProjects } from './demo/projects.ts';
import { seedDemoRiskControl } from './demo/risk-control.ts';
import { documentSigner } from './lib/signing.ts';
import { seedDictionaries } from './modules/dicts/seed.ts';
import { insurerName } from './modules/init/service.ts';
import { syncSeedMenus } from './modules/menus/seed.ts';
import { seedProducts } from './modules/products/seed.ts';

export interface StartDeps {
  config: Config;
  database: Database;
  /** One line for the operator. */
  log: (line: string) => void;
}

/**
 * The insurer's document-signing certificate, opened before the server listens (a PKCS#12 that cannot be opened
 * or has expired stops the start with a ConfigError), and the public URL the documents print.
 */
async function checkDocumentSigning(deps: StartDeps): Promise<void> {
  const signer = documentSigner(deps.config, await insurerName(deps.database.db), (file, written) =>
    deps.log(
      `WARNING: documents are signed by a demo certificate (${written ? 'issued now by the demo CA: ' : ''}${file}); set PIIBS_SIGNING_P12 and PIIBS_SIGNING_P12_PASSWORD to sign with the insurer's own certificate.`,
    ),
  );
  const c = signer.certificate;
  deps.log(
    `documents are signed by "${c.subject}" (issuer "${c.issuer}", serial ${c.serial}, valid until ${c.notAfter.toISOString().slice(0, 10)})`,
  );
  if (!deps.config.demo && !deps.config.publicUrlSet)
    deps.log(
      `WARNING: PIIBS_PUBLIC_URL is not set: the e-documents' QR codes and verification links point at ${deps.config.business.publicUrl}, which the public may not reach.`,
    );
}

/**
 * Runs once after migrations, before the server listens: the seed dictionaries and products on first start
 * (every installation), the document-signing certificate, then demo data and the demo CA in demo mode.
 */
export async function onStart(deps: StartDeps): Promise<void> {
  await seed(deps);
  // After the demo's seed: the demo certificate is named after the organisation it set up.
  await checkDocumentSigning(deps);
}

async function seed(deps: StartDeps): Promise<void> {
  if (await seedDictionaries(deps.database.db))
    deps.log('dictionaries seeded (industries, regions, statuses …)');
  const menusAdded = await syncSeedMenus(deps.database.db);
  if (menusAdded) deps.log(`menus updated: ${menusAdded} new menus, buttons or grants from this release`);
  if (await seedProducts(deps.database.db))
    deps.log(
      'products seeded (安责险（工贸行业）, 建筑施工安责险, 工程履约保证保险) with active rate tables',
    );
  if (!deps.config.demo) return;
  const seeded = await seedDemo(deps.database.db);
  const customers = await seedDemoCustomers(deps.database.db);
  if (customers) deps.log(`demo customers seeded: ${customers}`);
  const applications = await seedDemoApplications(deps.database.db, deps.config);
  if (applications) deps.log(`demo applications seeded: ${applications}`);
  if (await seedDemoPolicies(deps.database.db, deps.config))
    deps.log('demo policies seeded (paid, issued; one inside its renewal window)');
  const changes = await seedDemoPolicyChanges(deps.database.db, deps.config);
  if (changes) deps.log(`demo endorsement and cancellation seeded: ${changes}`);
  if (await seedDemoRiskControl(deps.database.db))
    deps.log('demo risk control seeded (organisation, experts, plan, orders)');
  if (await seedDemoProjects(deps.database.db, deps.config))
    deps.log('demo project insurance seeded (account contractor)');
  const notices = await seedDemoNotifications(deps.database.db);
  if (notices) deps.log(`demo notifications seeded: ${notices}`);
  const ca = ensureDemoCa(deps.config.dataDir, {
    ...DEMO_ENTERPRISE,
    uscc: await demoEnterpriseUscc(deps.database.db),
  });
  const accounts = ['admin', ...DEMO_USERS.map((u) => u.username)].join(', ');
  deps.log(
    `WARNING: PIIBS_DEMO=1 — demo data is loaded${seeded ? ' (seeded now)' : ''}. Accounts ${accounts}, password ${DEMO_PASSWORD}. Not for production.`,
  );
  if (ca.written.length) deps.log(`demo CA written: ${ca.written.join(', ')}`);
  deps.log(`demo enterprise certificate (CA sign-in): ${ca.enterpriseP12} (password ${DEMO_PASSWORD})`);
}
