// The domain's errors: what went wrong in the model's own terms (an entity that is not there, a
// transition its table refuses, a conflict, a full disk), with no status code and no wire field
// name. Each API adapter words them its own way (src/apis/*: `mapError`).

/** Base class: every error the domain raises on purpose. */
export class DomainError extends Error {}

/** No entity of that kind has that UUID. */
export class NotFound extends DomainError {
  /** @param {string} kind  `image`, `task`, `objectstore`, `cluster`, `service`... @param {string} uuid */
  constructor(kind, uuid) {
    super(`${kind} : ${uuid} does not exist.`);
    this.kind = kind;
    this.uuid = uuid;
  }
}

/**
 * The entity's transition table refuses the operation in the state it is in now (another
 * operation runs on it, or its state does not take this one).
 */
export class Refused extends DomainError {
  /**
   * @param {string} kind
   * @param {string} uuid
   * @param {string} operation  the refused operation (`update`, `delete`, `upload`...)
   * @param {string} found  what the entity is doing or its state, e.g. `DELETE_PENDING` or `update running`
   * @param {string} [hint]  what to do instead
   */
  constructor(kind, uuid, operation, found, hint) {
    super(`${kind} ${uuid} cannot take ${operation} now: ${found}.${hint ? ` ${hint}` : ''}`);
    this.kind = kind;
    this.uuid = uuid;
    this.operation = operation;
    this.found = found;
  }
}

/** The request conflicts with the entity as stored: a stale version, a UUID or name taken. */
export class Conflict extends DomainError {
  /**
   * @param {'stale' | 'exists'} code  `stale`: the version the client read is not the current one;
   *   `exists`: the UUID or name is taken
   * @param {string} message  names the entity and what to do
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Values the model refuses: a reference to no entity, an unknown category. Each field is named
 * the domain's way (`cluster`, `categories.Environment`...); adapters map them to the wire's.
 */
export class Invalid extends DomainError {
  /**
   * @param {Record<string, string>} details  field -> the rule it breaks, e.g. `{ cluster: 'no cluster has UUID 1234' }`
   * @param {string} [hint]  what the client may send instead (e.g. the values that exist)
   */
  constructor(details, hint) {
    super(
      `${Object.entries(details)
        .map(([f, r]) => `${f}: ${r}`)
        .join('; ')}${hint ? ` (${hint})` : ''}`,
    );
    this.details = details;
    this.hint = hint;
  }
}

/** The entity moved to a state the end of its task does not expect: the task changes nothing. */
export class MovedOn extends DomainError {
  /** @param {string} kind @param {string} uuid @param {string} found  its state now @param {string} event */
  constructor(kind, uuid, found, event) {
    super(`${kind} ${uuid} is ${found} now, not in a state that ${event} applies to; nothing was changed`);
    this.kind = kind;
    this.uuid = uuid;
  }
}

/** Uploaded bytes whose digest is not the one the client declared. */
export class ChecksumMismatch extends DomainError {
  /** @param {string} algorithm `sha1` | `sha256` @param {number} size bytes received @param {string} digest hex */
  constructor(algorithm, size, digest) {
    super(`the ${algorithm} of the ${size} bytes received is ${digest}`);
    this.algorithm = algorithm;
    this.size = size;
    this.digest = digest;
  }
}

/**
 * The state cannot explain files of the data dir (image bytes no image and no delete accounts
 * for): a damaged or missing `state.sqlite`. Starting would lose them, so the start is refused.
 */
export class StoreUnexplained extends Error {
  /**
   * @param {string[]} files  their names in `images/`
   * @param {boolean} emptyState  `state.sqlite` was missing or empty
   */
  constructor(files, emptyState) {
    super(
      `${emptyState ? 'state.sqlite is missing or empty, but' : 'state.sqlite accounts for none of'} ` +
        `${files.length} image file(s) in images/ (images/${files[0]}${files.length > 1 ? ', ...' : ''}): ` +
        'the store cannot explain them, so it does not start rather than delete them. Restore state.sqlite ' +
        'from a backup, or move those files out of images/, or start with --fresh to begin with an empty store',
    );
    this.name = 'StoreUnexplained';
    this.files = files;
  }
}

/** Error codes of a full disk: the file system's and SQLite's. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/**
 * Whether an error is the disk (or its quota) being full, from the file system or SQLite.
 * @param {unknown} error
 * @returns {boolean}
 */
export function isStorageFull(error) {
  const e = /** @type {any} */ (error);
  if (FULL.has(e?.code)) return true;
  // node:sqlite: `code` is ERR_SQLITE_ERROR, the SQLite result in `errcode` (13: SQLITE_FULL)
  return e?.code === 'ERR_SQLITE_ERROR' && (e.errcode & 0xff) === 13;
}
