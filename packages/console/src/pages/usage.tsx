import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, Section } from '../components';

interface Day {
  day: string;
  learned_tokens: number;
  answers: number;
}

const number = (value: number) => value.toLocaleString();

/** This month's figures and state, and learned tokens and answers per day. */
export function UsagePage() {
  const [usage, setUsage] = useState<any>(null);
  const [days, setDays] = useState<Day[]>([]);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api('GET', '/v1/usage').then(setUsage, setError);
    api('GET', '/v1/usage/daily?days=30').then((answer) => setDays(answer.days), setError);
  }, []);
  return (
    <div>
      <h1>Usage</h1>
      <ErrorNote error={error} />
      {usage && (
        <Section title="This month">
          <dl class="figures">
            <div>
              <dt>Plan</dt>
              <dd>
                {usage.plan}
                {usage.trial ? ' (trial)' : ''}
              </dd>
            </div>
            <div>
              <dt>State</dt>
              <dd>
                <span class={`badge badge-${usage.state}`}>{usage.state}</span>
              </dd>
            </div>
            <div>
              <dt>Learned tokens</dt>
              <dd>
                {number(usage.learned_tokens)} of {number(usage.included_tokens)}
              </dd>
            </div>
            <div>
              <dt>Waiting tokens</dt>
              <dd>{number(usage.waiting_tokens)}</dd>
            </div>
            <div>
              <dt>Answers</dt>
              <dd>
                {number(usage.answers)} of {number(usage.included_answers)}
              </dd>
            </div>
            <div>
              <dt>Extra learning</dt>
              <dd>{usage.extra_on ? `on, $${usage.extra_used_usd} of $${usage.extra_cap_usd}` : 'off'}</dd>
            </div>
            <div>
              <dt>Period</dt>
              <dd>
                {usage.period_start.slice(0, 10)} to {usage.period_end.slice(0, 10)}
              </dd>
            </div>
          </dl>
        </Section>
      )}
      <Section title="Last 30 days">
        <Chart days={days} field="learned_tokens" label="Learned tokens a day" color="#1d4ed8" />
        <Chart days={days} field="answers" label="Answers a day" color="#047857" />
      </Section>
    </div>
  );
}

/** A bar chart drawn as SVG, with a table of the same figures for screen readers. */
function Chart({ days, field, label, color }: { days: Day[]; field: 'learned_tokens' | 'answers'; label: string; color: string }) {
  const width = 600;
  const height = 160;
  const top = Math.max(1, ...days.map((day) => day[field]));
  const bar = days.length ? width / days.length : width;
  return (
    <figure class="chart">
      <figcaption>
        {label} <span class="muted">(highest {number(top === 1 && !days.some((day) => day[field]) ? 0 : top)})</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={`${label}, last ${days.length} days`}>
        <line x1="0" y1={height} x2={width} y2={height} stroke="#64748b" />
        {days.map((day, index) => {
          const barHeight = (day[field] / top) * height;
          return (
            <rect key={day.day} x={index * bar + 1} y={height - barHeight} width={Math.max(1, bar - 2)} height={barHeight} fill={color}>
              <title>{`${day.day}: ${number(day[field])}`}</title>
            </rect>
          );
        })}
        {days.length > 0 && (
          <text x="0" y={height + 16} font-size="11" fill="#334155">
            {days[0]!.day}
          </text>
        )}
        {days.length > 0 && (
          <text x={width} y={height + 16} font-size="11" fill="#334155" text-anchor="end">
            {days[days.length - 1]!.day}
          </text>
        )}
      </svg>
      <details>
        <summary>Figures</summary>
        <table>
          <thead>
            <tr>
              <th>Day</th>
              <th>{label}</th>
            </tr>
          </thead>
          <tbody>
            {days
              .filter((day) => day[field])
              .map((day) => (
                <tr key={day.day}>
                  <td>{day.day}</td>
                  <td>{number(day[field])}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
