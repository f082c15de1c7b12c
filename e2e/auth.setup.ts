// The 'sign-in' project (playwright.config.ts): each demo role signs in once through the API, and its session is
// saved as a storage state (the token where the login page puts it) for every spec to reuse (support.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { apiToken, authFile, DEMO_USERS, TOKEN_KEY } from './support.ts';

test('each demo role signs in once; the journeys reuse the sessions', async ({ request, baseURL }) => {
  for (const user of DEMO_USERS) {
    const token = await apiToken(request, user);
    mkdirSync(path.dirname(authFile(user)), { recursive: true });
    const state = {
      cookies: [],
      origins: [{ origin: baseURL!, localStorage: [{ name: TOKEN_KEY, value: token }] }],
    };
    writeFileSync(authFile(user), JSON.stringify(state));
  }
});
