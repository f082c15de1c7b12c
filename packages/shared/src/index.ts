export * from './auth.ts';
export * from './constants.ts';
export * from './money.ts';
export * from './password.ts';
export * from './password-forms.ts';
export * from './uscc.ts';
export * from './validators.ts';
export * from './views.ts';
