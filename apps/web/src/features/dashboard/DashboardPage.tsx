// Placeholder until the dashboard issue lands; it keeps the route, title and lazy chunk in place.
export default function DashboardPage() {
  return (
    <section style={{ padding: 24 }}>
      <h2>欢迎使用财产保险互联网出单系统</h2>
    </section>
  );
}
