import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api';
import { ErrorNote, Time } from '../components';

interface Row {
  id: number;
  at: string;
  method: string;
  route: string;
  status: number;
  space: string | null;
  key_prefix: string;
  request_id: string;
  duration_ms: number;
  error_type: string | null;
}

/** The request log: filter by status, space and route, or find one call by its request id. */
export function RequestsPage() {
  const [filters, setFilters] = useState({ status: '', space: '', route: '', request_id: '' });
  const [applied, setApplied] = useState(filters);
  const [rows, setRows] = useState<Row[]>([]);
  const [next, setNext] = useState<number | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [loaded, setLoaded] = useState(false);

  async function load(cursor?: number) {
    setError(null);
    try {
      const page = await api('GET', `/v1/requests${query({ ...applied, request_id: applied.request_id.trim(), cursor, limit: 50 })}`);
      setRows(cursor ? [...rows, ...page.requests] : page.requests);
      setNext(page.next);
    } catch (caught) {
      setError(caught);
    }
    setLoaded(true);
  }
  useEffect(() => void load(), [applied]);

  const field = (name: keyof typeof filters, label: string, placeholder: string) => (
    <label>
      {label}
      <input
        name={name}
        value={filters[name]}
        placeholder={placeholder}
        onInput={(event) => setFilters({ ...filters, [name]: event.currentTarget.value })}
      />
    </label>
  );

  return (
    <div>
      <h1>Requests</h1>
      <p class="muted">Every call made with your keys, newest first. Bodies and keys are never kept.</p>
      <form
        class="grid-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied({ ...filters });
        }}
      >
        {field('request_id', 'Request id', 'req_…')}
        {field('status', 'Status', '200, 4xx, 5xx')}
        {field('space', 'Space', 'any')}
        {field('route', 'Route', '/v1/memories/:memory_id')}
        <button type="submit">Find</button>
      </form>
      <ErrorNote error={error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Time</th>
              <th>Method</th>
              <th>Route</th>
              <th>Status</th>
              <th>Space</th>
              <th>Key</th>
              <th>Duration</th>
              <th>Error</th>
              <th>Request id</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} class={row.status >= 400 ? 'failed' : ''}>
                <td>
                  <Time at={row.at} />
                </td>
                <td>{row.method}</td>
                <td>
                  <code>{row.route}</code>
                </td>
                <td>
                  <span class={`status status-${String(row.status)[0]}`}>{row.status}</span>
                </td>
                <td>
                  {row.space === null ? <span class="muted">–</span> : row.space === '' ? <span class="muted">owner</span> : row.space}
                </td>
                <td>
                  <code>{row.key_prefix}…</code>
                </td>
                <td>{row.duration_ms} ms</td>
                <td>{row.error_type ?? ''}</td>
                <td>
                  <code class="request-id">{row.request_id}</code>
                </td>
              </tr>
            ))}
            {loaded && !rows.length && (
              <tr>
                <td colSpan={9} class="muted">
                  No calls match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {next !== undefined && (
        <button type="button" onClick={() => void load(next)}>
          Older calls
        </button>
      )}
    </div>
  );
}
