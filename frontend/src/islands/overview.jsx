// Overview (admin): revenue per day, orders by state, top parts and low stock, as SVG charts
// with every figure also in a table for screen readers (GET /api/stats).
import { useState } from "react";
import { api } from "../lib/api.js";
import { bars, scaleMax, shortDate, sumOf } from "../lib/charts.js";
import { counted, money, STATE_LABELS } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";

const PERIODS = [7, 30, 90];
const CHART = { width: 600, height: 160 };

function RevenueChart({ days }) {
  const shapes = bars(
    days.map((day) => day.revenue),
    CHART,
  );
  return (
    <figure className="card bg-base-100 border border-base-300 p-4">
      <figcaption className="font-semibold mb-2">
        Revenue per day: {money(sumOf(days, "revenue"))} from{" "}
        {counted(sumOf(days, "orders"), "{count} paid order", "{count} paid orders")}
      </figcaption>
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        className="w-full h-40"
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        {shapes.map((bar, index) => (
          <rect key={days[index].date} {...bar} className="fill-primary" rx="1" />
        ))}
      </svg>
      <div className="flex justify-between text-xs text-base-content/70" aria-hidden="true">
        <span>{shortDate(days[0].date)}</span>
        <span>{shortDate(days[days.length - 1].date)}</span>
      </div>
      <table className="sr-only">
        <caption>Revenue per day</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Revenue</th>
            <th scope="col">Paid orders</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <td>{day.date}</td>
              <td>{money(day.revenue)}</td>
              <td>{day.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function HorizontalBars({ title, rows }) {
  const max = scaleMax(rows.map((row) => row.value));
  return (
    <figure className="card bg-base-100 border border-base-300 p-4">
      <figcaption className="font-semibold mb-2">{title}</figcaption>
      {rows.length === 0 ? (
        <p className="text-sm">Nothing yet.</p>
      ) : (
        <dl className="flex flex-col gap-2">
          {rows.map((row) => (
            <div key={row.key}>
              <dt className="text-sm">{row.label}</dt>
              <dd className="flex items-center gap-2">
                <svg
                  viewBox="0 0 100 8"
                  className="h-3 min-w-0 flex-1"
                  preserveAspectRatio="none"
                  aria-hidden="true"
                  focusable="false"
                >
                  <rect
                    width={(row.value / max) * 100}
                    height="8"
                    rx="2"
                    className="fill-secondary"
                  />
                </svg>
                <span className="text-sm tabular-nums">{row.text}</span>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </figure>
  );
}

function LowStock({ parts }) {
  return (
    <section className="card bg-base-100 border border-base-300 p-4" aria-labelledby="low-stock">
      <h3 id="low-stock" className="font-semibold mb-2">
        Low on stock
      </h3>
      {parts.length === 0 ? (
        <p className="text-sm">Every part can be ordered.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {parts.map((part) => (
            <li key={part._id} className="text-sm">
              {part.name}: {part.availableQuantity} left, minimum order {part.minimumOrderQuantity}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const MISSED_SHOWN = 10;

function MissedSearches({ searches }) {
  const shown = (searches || []).slice(0, MISSED_SHOWN);
  return (
    <section
      className="card bg-base-100 border border-base-300 p-4"
      aria-labelledby="missed-searches"
    >
      <h3 id="missed-searches" className="font-semibold mb-2">
        Searches with no results
      </h3>
      {shown.length === 0 ? (
        <p className="text-sm">Nothing yet.</p>
      ) : (
        <ol className="flex flex-col gap-1">
          {shown.map((search) => (
            <li key={search.q} className="text-sm flex justify-between gap-2">
              <span className="min-w-0">{search.q}</span>{" "}
              <span className="tabular-nums">
                {counted(search.count, "{count} time", "{count} times")}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Overview({ stats: first, days: firstDays }) {
  const [stats, setStats] = useState(first);
  const [days, setDays] = useState(firstDays);
  const [error, setError] = useState("");

  async function choose(event) {
    const next = Number(event.target.value);
    setDays(next);
    try {
      setStats(await api(`/api/stats?days=${next}`));
      setError("");
    } catch (failure) {
      setError(failure.message);
    }
  }

  const states = Object.entries(stats.ordersByState).map(([state, count]) => ({
    key: state,
    label: STATE_LABELS[state] ?? state,
    value: count,
    text: String(count),
  }));
  const top = stats.topParts.map((part) => ({
    key: `${part.partId}-${part.name}`,
    label: part.name,
    value: Number(part.revenue),
    text: `${money(part.revenue)} (${counted(part.units, "{count} unit", "{count} units")})`,
  }));
  return (
    <div className="flex flex-col gap-4">
      <label className="flex items-center gap-2">
        <span>Period</span>
        <select className="select select-bordered w-auto" value={days} onChange={choose}>
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              Last {period} days
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="alert" className="text-error">
          {error}
        </p>
      )}
      <RevenueChart days={stats.revenueByDay} />
      <div className="grid grid-cols-1 lg:grid-cols-3 gap-4">
        <HorizontalBars title="Orders by state" rows={states} />
        <HorizontalBars title="Top parts by revenue" rows={top} />
        <LowStock parts={stats.lowStock} />
        <MissedSearches searches={stats.missedSearches} />
      </div>
    </div>
  );
}

mountIslands({ overview: Overview });
