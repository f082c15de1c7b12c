import 'antd/dist/reset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';
import { getToken } from './lib/auth-storage.ts';
import { firstLoadUrls, requestEarly } from './lib/early-requests.ts';

// What the first navigation will ask, asked now, beside the shell's code.
requestEarly(firstLoadUrls(window.location, getToken() !== null));

const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
