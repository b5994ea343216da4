// Pure helpers of the Overview's SVG charts: scales and labels, no DOM.

/** The largest value of `values`, at least 1 (an empty or all-zero chart still has a scale). */
export function scaleMax(values) {
  return Math.max(1, ...values.map((value) => Number(value) || 0));
}

/** Bars of a chart `width` × `height`: one per value, a gap between, heights to scale. */
export function bars(values, { width, height, gap = 2 }) {
  const max = scaleMax(values);
  const step = values.length ? width / values.length : width;
  return values.map((value, index) => {
    const barHeight = ((Number(value) || 0) / max) * height;
    return {
      x: index * step + gap / 2,
      y: height - barHeight,
      width: Math.max(step - gap, 1),
      height: barHeight,
    };
  });
}

/** "2026-11-22" → "22 Nov" (the axis labels of the revenue chart). */
export function shortDate(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
}

/** The sum of one field over the rows (revenue or orders over the period). */
export function sumOf(rows, field) {
  return Math.round(rows.reduce((sum, row) => sum + (Number(row[field]) || 0), 0) * 100) / 100;
}
