import { describe, expect, it } from 'vitest';
import { getToken, removeToken, setToken, toBearer } from './auth-storage.ts';

describe('the token lives in local storage under EL-ADMIN-TOEKN', () => {
  it('stores, reads and removes the token under the spec key', () => {
    setToken('abc');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('abc');
    expect(getToken()).toBe('abc');
    removeToken();
    expect(getToken()).toBeNull();
  });

  it('falls back to a hand-off token kept in session storage', () => {
    sessionStorage.setItem('EL-ADMIN-TOEKN', 'Bearer handoff');
    expect(getToken()).toBe('Bearer handoff');
    removeToken();
    expect(sessionStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
  });

  it('prefers the signed-in token over a hand-off token', () => {
    sessionStorage.setItem('EL-ADMIN-TOEKN', 'Bearer handoff');
    setToken('own');
    expect(getToken()).toBe('own');
  });
});

describe('toBearer', () => {
  it('adds the scheme once', () => {
    expect(toBearer('t')).toBe('Bearer t');
    expect(toBearer('Bearer t')).toBe('Bearer t');
  });
});
