// A Web Storage stand-in for unit tests (Node 20 has no localStorage or sessionStorage).
export function memoryStorage(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    clear: () => items.clear(),
    get length() {
      return items.size;
    },
  };
}
