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
const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const COMMIT = /^[0-9a-f]{40}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * @typedef {object} ClusterBuild  `status.resources.config.build` of a cluster (schema ClusterBuild)
 * @property {string} version       the release (`6.5.4.5`); `pc` on the central endpoint
 * @property {string} full_version  the full build name, which names the release
 * @property {string} commit_id     the 40 hexadecimal digits of the source commit
 * @property {string} short_commit_id  its first digits
 * @property {string} build_type    `release`
 * @property {boolean} is_long_term_support
 * @property {string} [commit_date] ISO 8601
 */

/**
 * The builds of a cluster without `build` in its topology: a registered cluster and the central
 * endpoint as production answered them (docs/service.md: the recorded cluster list of S4).
 * @type {{ registered: ClusterBuild, central: ClusterBuild }}
 */
export const DEFAULT_BUILDS = {
  registered: {
    build_type: 'release',
    version: '6.5.4.5',
    full_version: 'el7.3-release-fraser-6.5.4.5-stable-49bd685cde4e9488d6347655f7b655df97e1849e',
    commit_id: '49bd685cde4e9488d6347655f7b655df97e1849e',
    short_commit_id: '49bd68',
    is_long_term_support: true,
  },
  central: {
    build_type: 'release',
    version: 'pc',
    full_version: 'el8.5-release-fraser-2024.1-stable-pc-0.1-6ccae2637a516d0e88e57d5c63f19c5e1a23864b',
    commit_id: '6ccae2637a516d0e88e57d5c63f19c5e1a23864b',
    short_commit_id: '6ccae2',
    is_long_term_support: false,
    commit_date: '2024-05-21T06:38:19Z',
  },
};

/** The hypervisor version of the nodes of a cluster without `hypervisor_version` (the same recorded answer). */
export const DEFAULT_HYPERVISOR_VERSION = 'el7.nutanix.20220304.462';
/** The VPC of an OVERLAY subnet without `vpc` (simulator). */
export const DEFAULT_VPC = 'default-vpc';
/** The name and NTP servers of a cluster without `name_servers` or `ntp_servers` (simulator). */
export const DEFAULT_NAME_SERVERS = ['10.10.100.2'];
export const DEFAULT_NTP_SERVERS = ['0.pool.ntp.org', '1.pool.ntp.org'];

/** The fields of a topology's `build`, in the order the errors list them. */
const BUILD_FIELDS = [
  'version',
  'full_version',
  'commit_id',
  'short_commit_id',
  'commit_date',
  'build_type',
  'is_long_term_support',
];

/**
 * @typedef {object} TopologyCluster  a cluster of `--topology FILE`
 * @property {string} name
 * @property {string} [uuid]
 * @property {string} [ip]     its external IP
 * @property {string[]} [nodes]  its nodes' IPs
 * @property {boolean} [central]  the central endpoint itself
 * @property {Partial<ClusterBuild>} [build]  its software build (`version` and `full_version` required;
 *   `commit_id` defaults to the commit that ends `full_version`, `short_commit_id` to its first 6 digits)
 * @property {string} [data_services_ip]  its external data services IP
 * @property {string[]} [name_servers]  IPv4 addresses
 * @property {string[]} [ntp_servers]   host names or addresses
 * @property {string} [fqdn]   its fully qualified domain name
 * @property {string} [hypervisor_version]  its nodes' hypervisor version
 */

/**
 * @typedef {object} TopologySpec  what `--topology FILE` holds (JSON or YAML)
 * @property {TopologyCluster[]} clusters
 *   the registered clusters and, with `central: true`, the central endpoint itself
 * @property {{ name: string, uuid?: string, cluster?: string, vlan_id?: number, subnet_type?: 'VLAN' | 'OVERLAY',
 *   vswitch_name?: string, network?: string, vpc?: string }[]} subnets  `network` is `a.b.c.0/24`; `cluster` a
 *   cluster's name; `vpc` the name of the VPC of an OVERLAY subnet (default `DEFAULT_VPC`)
 */

/** The topology of a data dir started without `--topology` (also in the simulator's README). */
export const DEFAULT_TOPOLOGY = {
  clusters: [
    {
      name: 'cluster-01',
      ip: '10.10.100.10',
      nodes: ['10.10.100.11', '10.10.100.12', '10.10.100.13'],
      data_services_ip: '10.10.100.9',
    },
    { name: 'prism-central', ip: '10.10.100.5', nodes: ['10.10.100.5'], central: true, fqdn: 'pc.example.internal' },
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
    if (c.data_services_ip !== undefined && !IPV4.test(String(c.data_services_ip)))
      fail(`${at}.data_services_ip`, 'must be an IPv4 address');
    if (
      c.name_servers !== undefined &&
      !(nonEmptyList(c.name_servers) && c.name_servers.every((n) => IPV4.test(String(n))))
    )
      fail(`${at}.name_servers`, 'must be a non-empty list of IPv4 addresses');
    if (
      c.ntp_servers !== undefined &&
      !(nonEmptyList(c.ntp_servers) && c.ntp_servers.every((n) => HOST_NAME.test(String(n))))
    )
      fail(`${at}.ntp_servers`, 'must be a non-empty list of host names or IPv4 addresses');
    if (c.fqdn !== undefined && !(typeof c.fqdn === 'string' && HOST_NAME.test(c.fqdn)))
      fail(`${at}.fqdn`, 'must be a host name such as pc.example.internal');
    if (c.hypervisor_version !== undefined && !nonEmptyString(c.hypervisor_version))
      fail(`${at}.hypervisor_version`, 'must be a non-empty string');
    if (c.build !== undefined) c.build = checkBuild(c.build, `${at}.build`, c.central === true, fail);
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
    if (s.vpc !== undefined && !(nonEmptyString(s.vpc) && s.subnet_type === 'OVERLAY'))
      fail(`${at}.vpc`, 'must be a non-empty string, on a subnet with subnet_type OVERLAY');
  }
  return { clusters, subnets };
}

const nonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
const nonEmptyList = (v) => Array.isArray(v) && v.length > 0;

/**
 * Checks a cluster's `build` and fills what it leaves out.
 * @param {any} build
 * @param {string} at  where it is (`clusters[0].build`)
 * @param {boolean} central  the central endpoint's (its `version` is `pc`)
 * @param {(field: string, rule: string) => never} fail
 * @returns {ClusterBuild}
 */
function checkBuild(build, at, central, fail) {
  if (build === null || typeof build !== 'object' || Array.isArray(build))
    fail(at, `must be an object with ${BUILD_FIELDS.join(', ')}`);
  for (const key of Object.keys(build))
    if (!BUILD_FIELDS.includes(key)) fail(`${at}.${key}`, `is not a build field (${BUILD_FIELDS.join(', ')})`);
  if (!nonEmptyString(build.version)) fail(`${at}.version`, 'must be a non-empty string such as 6.10.1');
  // production: the central endpoint's build version is `pc` (schema ClusterBuild, docs/service.md)
  if (central && build.version !== 'pc') fail(`${at}.version`, 'must be "pc" on the central endpoint (central: true)');
  if (!nonEmptyString(build.full_version))
    fail(`${at}.full_version`, 'must be a non-empty string such as el8.5-release-ganges-6.10.1-stable-<commit_id>');
  const commitId = build.commit_id ?? /(?:^|-)([0-9a-f]{40})$/.exec(build.full_version)?.[1];
  if (commitId === undefined)
    fail(`${at}.commit_id`, 'is required when full_version does not end in the 40 hexadecimal digits of the commit');
  if (!COMMIT.test(String(commitId))) fail(`${at}.commit_id`, 'must be 40 lowercase hexadecimal digits (a git commit)');
  const shortId = build.short_commit_id ?? commitId.slice(0, 6);
  if (!(typeof shortId === 'string' && /^[0-9a-f]{4,40}$/.test(shortId) && commitId.startsWith(shortId)))
    fail(`${at}.short_commit_id`, 'must be the first 4 to 40 hexadecimal digits of commit_id');
  if (
    build.commit_date !== undefined &&
    !(DATE_TIME.test(String(build.commit_date)) && !Number.isNaN(Date.parse(build.commit_date)))
  )
    fail(`${at}.commit_date`, 'must be an ISO 8601 date-time such as 2024-05-21T06:38:19Z');
  if (build.build_type !== undefined && !nonEmptyString(build.build_type))
    fail(`${at}.build_type`, 'must be a non-empty string such as release');
  if (build.is_long_term_support !== undefined && typeof build.is_long_term_support !== 'boolean')
    fail(`${at}.is_long_term_support`, 'must be true or false');
  return {
    build_type: build.build_type ?? 'release',
    version: build.version,
    full_version: build.full_version,
    commit_id: commitId,
    short_commit_id: shortId,
    is_long_term_support: build.is_long_term_support ?? false,
    ...(build.commit_date !== undefined ? { commit_date: build.commit_date } : {}),
  };
}

/**
 * What a cluster answers beyond its name and addresses, with the defaults of a cluster whose
 * topology left them out (and of data dirs seeded before they existed).
 * @param {any} c  a stored cluster
 * @returns {{ build: ClusterBuild, hypervisorVersion: string, nameServers: string[], ntpServers: string[],
 *   dataServicesIp?: string, fqdn?: string }}
 */
export function clusterSettings(c) {
  return {
    build: c.build ?? DEFAULT_BUILDS[c.central ? 'central' : 'registered'],
    hypervisorVersion: c.hypervisorVersion ?? DEFAULT_HYPERVISOR_VERSION,
    nameServers: c.nameServers ?? DEFAULT_NAME_SERVERS,
    ntpServers: c.ntpServers ?? DEFAULT_NTP_SERVERS,
    ...(c.dataServicesIp ? { dataServicesIp: c.dataServicesIp } : {}),
    ...(c.fqdn ? { fqdn: c.fqdn } : {}),
  };
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
    ...(c.build ? { build: c.build } : {}),
    ...(c.data_services_ip ? { dataServicesIp: c.data_services_ip } : {}),
    ...(c.name_servers ? { nameServers: c.name_servers } : {}),
    ...(c.ntp_servers ? { ntpServers: c.ntp_servers } : {}),
    ...(c.fqdn ? { fqdn: c.fqdn } : {}),
    ...(c.hypervisor_version ? { hypervisorVersion: c.hypervisor_version } : {}),
  }));
  for (const c of clusters) store.put('cluster', c.uuid, c);
  const pe = clusters.find((c) => !c.central);
  for (const s of spec.subnets) {
    const cluster = clusters.find((c) => c.name === (s.cluster ?? pe.name));
    const uuid = (s.uuid ?? seededUuid(seed, s.name)).toLowerCase();
    const vlanId = s.vlan_id ?? 0;
    const overlay = s.subnet_type === 'OVERLAY';
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
      // an overlay subnet belongs to a VPC (one UUID per VPC name)
      ...(overlay
        ? { vpc: { name: s.vpc ?? DEFAULT_VPC, uuid: seededUuid(seed, `vpc-${s.vpc ?? DEFAULT_VPC}`) } }
        : {}),
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

/** Freezes a record and everything in it: the topology is read by every answer and never written. */
function frozen(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The topology as the APIs read it: clusters, subnets and storage containers, read once from the
 * store (they are seeded before it and never change while the simulator runs; answers read them
 * for every entity they show) and frozen.
 * @param {import('./store.js').Store} store
 */
export function createTopology(store) {
  const byUuid = (kind) => new Map(store.list(kind).map((x) => [x.uuid, frozen(x)]));
  const clusters = byUuid('cluster');
  const subnets = byUuid('subnet');
  const containers = byUuid('container');
  const home = [...containers.values()][0]?.clusterUuid;
  return {
    clusters: () => [...clusters.values()],
    subnets: () => [...subnets.values()],
    containers: () => [...containers.values()],
    /** @param {string} uuid */
    cluster: (uuid) => clusters.get(uuid),
    /** @param {string} uuid */
    subnet: (uuid) => subnets.get(uuid),
    /** @param {string | undefined} uuid */
    container: (uuid) => (uuid ? containers.get(uuid) : undefined),
    /** The registered cluster that holds the storage containers and runs the tasks (its UUID). */
    home: () => home,
  };
}
