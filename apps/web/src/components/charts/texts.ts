// The chart kit's words.
export const CHART_TEXTS = Object.freeze({
  loading: '图表加载中…',
  failed: '图表加载失败，请切换到表格查看',
  chart: '图表',
  table: '表格',
  exportCsv: '导出',
  exportTitle: '导出为 CSV（Excel 可直接打开）',
  viewLabel: '显示方式',
});
