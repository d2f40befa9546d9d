// The topology: clusters, subnets and storage containers, seeded once at the first start of
// a data dir (UUIDs derived from the seed, so `--seed` repeats them) and kept in the store.
import { createHash } from 'node:crypto';

/** A UUID made from a seed and a name (stable across starts with the same seed). */
export function seededUuid(seed, name) {
  const h = createHash('sha256').update(`${seed}:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const GiB = 1024 ** 3;

/**
 * Seeds clusters, subnets and storage containers when the store has none.
 * @param {import('./store.js').Store} store
 * @param {number} seed
 */
export function seedTopology(store, seed) {
  if (store.count('cluster') > 0) return;
  const created = '2026-01-05T09:00:00Z';
  const pe = {
    uuid: seededUuid(seed, 'cluster-01'),
    name: 'cluster-01',
    ip: '10.10.100.10',
    nodes: ['10.10.100.11', '10.10.100.12', '10.10.100.13'],
    created,
  };
  const pc = {
    uuid: seededUuid(seed, 'prism-central'),
    name: 'prism-central',
    ip: '10.10.100.5',
    nodes: ['10.10.100.5'],
    created,
    central: true,
  };
  store.put('cluster', pe.uuid, pe);
  store.put('cluster', pc.uuid, pc);
  const subnets = [
    { name: 'vlan-110-infra', vlan: 110, prefix: '10.10.110' },
    { name: 'vlan-120-client', vlan: 120, prefix: '10.10.120' },
  ];
  for (const s of subnets) {
    const uuid = seededUuid(seed, s.name);
    store.put('subnet', uuid, {
      uuid,
      name: s.name,
      vlanId: s.vlan,
      prefix: s.prefix,
      clusterUuid: pe.uuid,
      clusterName: pe.name,
      created,
    });
  }
  const containers = [
    { name: 'default-container-33871', id: 4, capacity: 20 * 1024 * GiB, used: 412 * GiB },
    { name: 'ISO', id: 7, capacity: 20 * 1024 * GiB, used: 16 * GiB },
    { name: 'SelfServiceContainer', id: 9, capacity: 20 * 1024 * GiB, used: 2 * GiB },
  ];
  for (const c of containers) {
    const uuid = seededUuid(seed, `container-${c.name}`);
    store.put('container', uuid, {
      uuid,
      name: c.name,
      id: `${pe.uuid}::${c.id}`,
      numericId: c.id,
      clusterUuid: pe.uuid,
      storagePoolUuid: seededUuid(seed, 'storage-pool'),
      capacity: c.capacity,
      baseUsage: c.used,
    });
  }
}

/**
 * The topology as the APIs read it: clusters, subnets and storage containers (read-only).
 * @param {import('./store.js').Store} store
 */
export function createTopology(store) {
  return {
    clusters: () => store.list('cluster'),
    subnets: () => store.list('subnet'),
    containers: () => store.list('container'),
    /** @param {string} uuid */
    cluster: (uuid) => store.get('cluster', uuid),
    /** @param {string} uuid */
    subnet: (uuid) => store.get('subnet', uuid),
    /** @param {string | undefined} uuid */
    container: (uuid) => (uuid ? store.get('container', uuid) : undefined),
  };
}
