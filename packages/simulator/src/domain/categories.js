// Categories: the predefined ones production ships (name -> values). An entity's categories
// (`{ name: value }`) and categories_mapping (`{ name: [values] }`) must name existing
// name:value pairs; both are kept and answered back exactly as sent.
import { Invalid } from './errors.js';

/** The predefined categories of a fresh production install that automation relies on. */
export const PREDEFINED_CATEGORIES = {
  AppType: ['Default'],
  Environment: ['Production', 'Dev', 'Testing', 'Staging'],
};

/**
 * The category store: the predefined categories (read-only in the simulator).
 * @param {Record<string, string[]>} [defined]
 */
export function createCategories(defined = PREDEFINED_CATEGORIES) {
  const has = (name, value) => Object.hasOwn(defined, name) && defined[name].includes(value);
  return {
    /** Every category name with its values. */
    list: () => structuredClone(defined),
    /**
     * Checks that every pair of `categories` and `categories_mapping` exists.
     * @param {{ categories?: Record<string, string>, categoriesMapping?: Record<string, string[]> }} given
     * @throws {Invalid} naming `categories.<name>` or `categoriesMapping.<name>` for each unknown `name:value`
     */
    check({ categories = {}, categoriesMapping = {} }) {
      /** @type {Record<string, string>} */
      const details = {};
      for (const [name, value] of Object.entries(categories))
        if (!has(name, value)) details[`categories.${name}`] = `category ${name}:${value} does not exist`;
      for (const [name, values] of Object.entries(categoriesMapping))
        for (const value of values)
          if (!has(name, value)) details[`categoriesMapping.${name}`] = `category ${name}:${value} does not exist`;
      if (Object.keys(details).length)
        throw new Invalid(
          details,
          `the categories are ${Object.entries(defined)
            .map(([n, v]) => `${n}: ${v.join(', ')}`)
            .join('; ')}`,
        );
    },
  };
}
