// The chart kit's words.
export const CHART_TEXTS = Object.freeze({
  chart: '图表',
  table: '表格',
  exportCsv: '导出',
  exportTitle: '导出为 CSV（Excel 可直接打开）',
  viewLabel: '显示方式',
  roleDescription: '图表',
  keyboardHint: '（可用方向键逐项查看数值）',
});
