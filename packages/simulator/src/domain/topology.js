// The topology: clusters, subnets and storage containers, seeded once at the first start of
// a data dir (UUIDs derived from the seed, so `--seed` repeats them) and kept in the store.
import { createHash } from 'node:crypto';

/** A UUID made from a seed and a name (stable across starts with the same seed). */
export function seededUuid(seed, name) {
  const h = createHash('sha256').update(`${seed}:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const GiB = 1024 ** 3;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * @typedef {object} TopologySpec  what `--topology FILE` holds (JSON or YAML)
 * @property {{ name: string, uuid?: string, ip?: string, nodes?: string[], central?: boolean }[]} clusters
 *   the registered clusters and, with `central: true`, the central endpoint itself
 * @property {{ name: string, uuid?: string, cluster?: string, vlan_id?: number, subnet_type?: 'VLAN' | 'OVERLAY',
 *   vswitch_name?: string, network?: string }[]} subnets  `network` is `a.b.c.0/24`; `cluster` a cluster's name
 */

/** The topology of a data dir started without `--topology` (also in the simulator's README). */
export const DEFAULT_TOPOLOGY = {
  clusters: [
    { name: 'cluster-01', ip: '10.10.100.10', nodes: ['10.10.100.11', '10.10.100.12', '10.10.100.13'] },
    { name: 'prism-central', ip: '10.10.100.5', nodes: ['10.10.100.5'], central: true },
  ],
  subnets: [
    { name: 'vlan-110-infra', cluster: 'cluster-01', vlan_id: 110, network: '10.10.110.0/24' },
    { name: 'vlan-120-client', cluster: 'cluster-01', vlan_id: 120, network: '10.10.120.0/24' },
    { name: 'Primary', cluster: 'cluster-01', vlan_id: 0, network: '10.10.0.0/24' },
    { name: 'Secondary', cluster: 'cluster-01', vlan_id: 1, network: '10.10.1.0/24' },
  ],
};

/**
 * Checks a topology read from a file and fills its defaults.
 * @param {any} spec  the parsed JSON or YAML
 * @returns {TopologySpec}
 * @throws {Error} naming the field and the rule
 */
export function checkTopology(spec) {
  const fail = (field, rule) => {
    throw new Error(`${field} ${rule}`);
  };
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    fail('the topology', 'must be an object with clusters and subnets');
  const { clusters, subnets = [] } = spec;
  if (!Array.isArray(clusters) || clusters.length === 0) fail('clusters', 'must be a non-empty list');
  if (!Array.isArray(subnets)) fail('subnets', 'must be a list');
  /** The rules clusters and subnets share: an object with a unique name and an optional UUID. */
  const named = (list, what) => {
    const names = new Set();
    return list.map((entry, i) => {
      const at = `${what}[${i}]`;
      if (entry === null || typeof entry !== 'object') fail(at, 'must be an object with a name');
      if (typeof entry.name !== 'string' || entry.name === '') fail(`${at}.name`, 'must be a non-empty string');
      if (names.has(entry.name)) fail(`${at}.name`, `"${entry.name}" is used twice`);
      names.add(entry.name);
      if (entry.uuid !== undefined && !UUID.test(String(entry.uuid))) fail(`${at}.uuid`, 'must be a UUID');
      return /** @type {[string, any]} */ ([at, entry]);
    });
  };
  for (const [at, c] of named(clusters, 'clusters')) {
    if (c.ip !== undefined && !IPV4.test(String(c.ip))) fail(`${at}.ip`, 'must be an IPv4 address');
    if (c.nodes !== undefined && !(Array.isArray(c.nodes) && c.nodes.every((n) => IPV4.test(String(n)))))
      fail(`${at}.nodes`, 'must be a list of IPv4 addresses');
    if (c.central !== undefined && typeof c.central !== 'boolean') fail(`${at}.central`, 'must be true or false');
  }
  const registered = clusters.filter((c) => !c.central);
  if (registered.length === 0) fail('clusters', 'must hold at least one registered cluster (without central: true)');
  for (const [at, s] of named(subnets, 'subnets')) {
    if (s.cluster !== undefined && !registered.some((c) => c.name === s.cluster))
      fail(`${at}.cluster`, `must name a registered cluster (${registered.map((c) => c.name).join(', ')})`);
    if (s.vlan_id !== undefined && !(Number.isInteger(s.vlan_id) && s.vlan_id >= 0 && s.vlan_id <= 4095))
      fail(`${at}.vlan_id`, 'must be an integer 0-4095');
    if (s.subnet_type !== undefined && !['VLAN', 'OVERLAY'].includes(s.subnet_type))
      fail(`${at}.subnet_type`, 'must be VLAN or OVERLAY');
    if (s.vswitch_name !== undefined && (typeof s.vswitch_name !== 'string' || s.vswitch_name === ''))
      fail(`${at}.vswitch_name`, 'must be a non-empty string');
    if (s.network !== undefined && !/^(\d+\.\d+\.\d+)\.0\/24$/.test(String(s.network)))
      fail(`${at}.network`, 'must be a /24 network such as 10.10.110.0/24');
  }
  return { clusters, subnets };
}

/**
 * Seeds the topology: clusters and subnets from `spec` (UUIDs from the file, else derived from the
 * seed and the name, so `--seed` repeats them) and, once, the storage containers of the first
 * registered cluster. Without `replace`, a data dir that has clusters already keeps them.
 * @param {import('./store.js').Store} store
 * @param {number} seed
 * @param {TopologySpec} [spec]  default: DEFAULT_TOPOLOGY
 * @param {{ replace?: boolean }} [o]  `--topology` given: its clusters and subnets replace the stored ones
 */
export function seedTopology(store, seed, spec = DEFAULT_TOPOLOGY, { replace = false } = {}) {
  const fresh = store.count('cluster') === 0;
  if (!fresh && !replace) return;
  const created = '2026-01-05T09:00:00Z';
  if (replace) {
    for (const c of store.list('cluster')) store.remove('cluster', c.uuid);
    for (const s of store.list('subnet')) store.remove('subnet', s.uuid);
  }
  const clusters = spec.clusters.map((c, i) => ({
    uuid: (c.uuid ?? seededUuid(seed, c.name)).toLowerCase(),
    name: c.name,
    ip: c.ip ?? `10.10.100.${10 + i}`,
    nodes: c.nodes ?? [c.ip ?? `10.10.100.${10 + i}`],
    created,
    ...(c.central ? { central: true } : {}),
  }));
  for (const c of clusters) store.put('cluster', c.uuid, c);
  const pe = clusters.find((c) => !c.central);
  for (const s of spec.subnets) {
    const cluster = clusters.find((c) => c.name === (s.cluster ?? pe.name));
    const uuid = (s.uuid ?? seededUuid(seed, s.name)).toLowerCase();
    const vlanId = s.vlan_id ?? 0;
    store.put('subnet', uuid, {
      uuid,
      name: s.name,
      vlanId,
      subnetType: s.subnet_type ?? 'VLAN',
      vswitchName: s.vswitch_name ?? 'br0',
      prefix: s.network ? s.network.split('.').slice(0, 3).join('.') : `10.10.${vlanId % 256}`,
      clusterUuid: cluster.uuid,
      clusterName: cluster.name,
      created,
    });
  }
  if (store.count('container') > 0) return;
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
