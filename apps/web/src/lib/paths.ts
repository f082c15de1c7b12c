// Fixed paths several layers link to; menu routes come from the server instead.
export const HOME_PATH = '/piibs/dashboard';
export const NOT_FOUND_PATH = '/piibs/404';
export const FORBIDDEN_PATH = '/piibs/401';
