import {
  ApiOutlined,
  ClockCircleOutlined,
  CloudServerOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import type { MonitorResult, SlowRequest } from '@piibs/shared/admin';
import { formatTime } from '@piibs/shared/constants';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Progress,
  Row,
  Space,
  Spin,
  Statistic,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { type DetailColumn, DetailTable } from '@/components/crud/DetailTable.tsx';
import { errorMessage } from '@/components/crud/resource.ts';
import { monitorQuery } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const REFRESH_MS = 10_000;

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} 天 ${hours} 小时`;
  if (hours > 0) return `${hours} 小时 ${minutes} 分钟`;
  return `${minutes} 分钟 ${seconds % 60} 秒`;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

const METHOD_COLORS: Record<string, string> = {
  GET: 'processing',
  POST: 'success',
  PUT: 'warning',
  DELETE: 'error',
};
const method = (m: string) => <Tag color={METHOD_COLORS[m] ?? 'default'}>{m}</Tag>;
const ms = (value: number) => `${Math.round(value)} ms`;

// The route leads: it heads each card on a phone.
const routeColumn = <R extends { route: string }>(): DetailColumn<R> => ({
  key: 'route',
  title: T.route,
  dataIndex: 'route',
  render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
});

const slowColumns: DetailColumn<SlowRequest>[] = [
  routeColumn(),
  { key: 'method', title: T.method, dataIndex: 'method', width: 90, render: method },
  { key: 'ms', title: T.duration, dataIndex: 'ms', width: 110, render: ms },
  { key: 'status', title: T.statusCode, dataIndex: 'status', width: 90 },
  { key: 'at', title: T.at, dataIndex: 'at', width: 180, render: (v: string) => formatTime(v) },
];

type RouteStat = MonitorResult['routes'][number];
const routeColumns: DetailColumn<RouteStat>[] = [
  routeColumn(),
  { key: 'method', title: T.method, dataIndex: 'method', width: 90, render: method },
  { key: 'count', title: T.calls, dataIndex: 'count', width: 100, sorter: (a, b) => a.count - b.count },
  {
    key: 'avgMs',
    title: T.avg,
    dataIndex: 'avgMs',
    width: 110,
    render: ms,
    sorter: (a, b) => a.avgMs - b.avgMs,
  },
  {
    key: 'maxMs',
    title: T.max,
    dataIndex: 'maxMs',
    width: 110,
    render: ms,
    sorter: (a, b) => a.maxMs - b.maxMs,
    defaultSortOrder: 'descend',
  },
];

function StatCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card
      variant="borderless"
      title={
        <Space size={8}>
          {icon}
          {title}
        </Space>
      }
      style={{ height: '100%' }}
    >
      {children}
    </Card>
  );
}

function Overview({ data }: { data: MonitorResult }) {
  const { server, memory, os, database } = data;
  const usedMem = os.totalMem - os.freeMem;
  const load1 = os.loadavg[0] ?? 0;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={12} xl={6}>
        <StatCard icon={<ClockCircleOutlined />} title={T.server}>
          <Statistic title={T.uptime} value={formatUptime(server.uptimeSeconds)} />
          <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
            <Descriptions.Item label={T.startedAt}>{formatTime(server.startedAt)}</Descriptions.Item>
            <Descriptions.Item label={T.nodeVersion}>{server.nodeVersion}</Descriptions.Item>
            <Descriptions.Item label={T.platform}>{server.platform}</Descriptions.Item>
            <Descriptions.Item label={T.pid}>{server.pid}</Descriptions.Item>
          </Descriptions>
        </StatCard>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <StatCard icon={<CloudServerOutlined />} title={T.memory}>
          <Statistic title={T.rss} value={formatBytes(memory.rss)} />
          <div style={{ marginTop: 12 }}>
            <Typography.Text type="secondary">
              {T.heap} {formatBytes(memory.heapUsed)} / {formatBytes(memory.heapTotal)}
            </Typography.Text>
            <Progress percent={percent(memory.heapUsed, memory.heapTotal)} size="small" aria-label={T.heap} />
            <Typography.Text type="secondary">
              {T.external} {formatBytes(memory.external)}
            </Typography.Text>
          </div>
        </StatCard>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <StatCard icon={<DashboardOutlined />} title={T.systemLoad}>
          <Statistic title={`${T.load(1)}（${T.cpus} ${os.cpus}）`} value={load1.toFixed(2)} />
          <Progress
            percent={Math.min(100, percent(load1, os.cpus))}
            size="small"
            status={load1 > os.cpus ? 'exception' : 'normal'}
            aria-label={`${T.systemLoad} ${T.load(1)}`}
          />
          <Typography.Text type="secondary">
            {T.load(5)} {(os.loadavg[1] ?? 0).toFixed(2)} · {T.load(15)} {(os.loadavg[2] ?? 0).toFixed(2)}
          </Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Typography.Text type="secondary">
              {T.systemMemory} {formatBytes(usedMem)} / {formatBytes(os.totalMem)}
            </Typography.Text>
            <Progress percent={percent(usedMem, os.totalMem)} size="small" aria-label={T.systemMemory} />
          </div>
        </StatCard>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <StatCard icon={<DatabaseOutlined />} title={T.database}>
          <Statistic title={T.dbSize} value={formatBytes(database.sizeBytes)} />
          <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
            <Descriptions.Item label={T.dbConnections}>{database.connections}</Descriptions.Item>
            <Descriptions.Item label={T.dbVersion}>{database.version}</Descriptions.Item>
            <Descriptions.Item label={T.database}>
              <Tag color={database.embedded ? 'processing' : 'success'}>
                {database.embedded ? T.dbEmbedded : T.dbExternal}
              </Tag>
            </Descriptions.Item>
          </Descriptions>
        </StatCard>
      </Col>
    </Row>
  );
}

/** A monitor table, 10 rows a page; a card per row on a phone. */
function MonitorTable<R extends object>({
  noun,
  rowKey,
  columns,
  rows,
}: {
  noun: string;
  rowKey: (row: R) => string;
  columns: DetailColumn<R>[];
  rows: readonly R[];
}) {
  const [page, setPage] = useState(1);
  return (
    <DetailTable<R>
      noun={noun}
      size="small"
      rowKey={rowKey}
      columns={columns}
      dataSource={rows}
      pages={{ current: page, pageSize: 10, onChange: setPage }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.noSlow} /> }}
      scroll={{ x: 'max-content' }}
    />
  );
}

/** 服务监控: process, memory, load and database figures, the slowest requests; refreshed every 10 seconds. */
export default function Monitor() {
  // A hidden tab unmounts its effects (<Activity>), which stops the polling too.
  const monitor = useQuery({ ...monitorQuery, refetchInterval: REFRESH_MS });
  const data = monitor.data;
  // Slowest first, as the table sorts them by default (a phone's cards keep this order).
  const routes = useMemo(() => [...(data?.routes ?? [])].sort((a, b) => b.maxMs - a.maxMs), [data]);

  return (
    <div style={{ padding: 16 }}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">
          {T.autoRefresh}
          {data ? ` · ${formatTime(new Date(monitor.dataUpdatedAt))}` : ''}
        </Typography.Text>
        <Space>
          <Button icon={<ApiOutlined />} href={data?.docsUrl ?? '/api/docs'} target="_blank" rel="noopener">
            {T.apiDocs}
          </Button>
          <Tooltip title={T.refresh}>
            <Button
              aria-label={T.refresh}
              icon={<ReloadOutlined spin={monitor.isFetching} />}
              onClick={() => void monitor.refetch()}
            />
          </Tooltip>
        </Space>
      </Flex>
      {monitor.isPending ? (
        <Spin size="large" style={{ display: 'block', margin: '15vh auto' }} />
      ) : !data ? (
        <Card variant="borderless">
          <Empty description={`${T.loadFailed}：${errorMessage(monitor.error)}`}>
            <Button type="primary" onClick={() => void monitor.refetch()}>
              {T.retry}
            </Button>
          </Empty>
        </Card>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Overview data={data} />
          <Card variant="borderless" title={T.slowest}>
            <MonitorTable<SlowRequest>
              noun={T.slowRequest}
              rowKey={(row) => `${row.method} ${row.route} ${row.at} ${row.ms}`}
              columns={slowColumns}
              rows={data.slowest}
            />
          </Card>
          <Card variant="borderless" title={T.routes}>
            <MonitorTable<RouteStat>
              noun={T.routeStat}
              rowKey={(row) => `${row.method} ${row.route}`}
              columns={routeColumns}
              rows={routes}
            />
          </Card>
        </Space>
      )}
    </div>
  );
}
