// A short, human label for a User-Agent ("Chrome 131 / Windows 10"), for the online and sign-in lists.
// Deliberately small: the common browsers and systems of the product's users, nothing exhaustive.

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/([\d.]+)/, '微信'],
  [/DingTalk\/([\d.]+)/, '钉钉'],
  [/QQBrowser\/([\d.]+)/, 'QQ浏览器'],
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/OPR\/([\d.]+)/, 'Opera'],
  [/Firefox\/([\d.]+)/, 'Firefox'],
  [/HeadlessChrome\/([\d.]+)/, 'Headless Chrome'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
  [/(?:MSIE |Trident\/.*rv:)([\d.]+)/, 'IE'],
  [/curl\/([\d.]+)/, 'curl'],
];

const SYSTEMS: [RegExp, string | ((m: RegExpExecArray) => string)][] = [
  [/Windows NT 10\.0/, 'Windows 10'],
  [/Windows NT 6\.3/, 'Windows 8.1'],
  [/Windows NT 6\.1/, 'Windows 7'],
  [/Windows/, 'Windows'],
  [/Android ([\d.]+)/, (m) => `Android ${m[1]}`],
  [/(?:iPhone|iPad).*OS (\d+)[_\d]*/, (m) => `iOS ${m[1]}`],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function browserOf(ua: string | null | undefined): string | null {
  if (!ua) return null;
  let browser: string | null = null;
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]!.split('.')[0]}`;
      break;
    }
  }
  let system: string | null = null;
  for (const [re, name] of SYSTEMS) {
    const m = re.exec(ua);
    if (m) {
      system = typeof name === 'string' ? name : name(m);
      break;
    }
  }
  if (!browser && !system) return ua.slice(0, 40);
  return [browser, system].filter(Boolean).join(' / ');
}
