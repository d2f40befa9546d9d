// What an editor shows on hover: the workflow helpers' results by name (`CompleteImage`, `Task`,
// ...), not expanded anonymous objects. Asked of the TypeScript checker, as an editor does.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = `${dir}hover-probe.ts`;
const probe = `
import { createCentralClient, createElementClient, createObjectsClient } from '../src/index.js';
const central = createCentralClient({ host: 'pc', username: 'u', password: 'p' });
const element = createElementClient({ host: 'pe', username: 'u', password: 'p' });
const objects = createObjectsClient({ host: 'pc', username: 'u', password: 'p' });
export async function probe() {
  const image = await central.createImageFromUrl({ name: 'x', resources: { source_uri: 'https://x/y.qcow2' } });
  const task = await central.waitForTask('x');
  const enabled = await central.enableObjectsService();
  const upload = await element.uploadImage({ name: 'x', imageType: 'ISO_IMAGE', container: 'c', file: 'a.iso' });
  const v2 = await element.waitForTask('x', { version: 'v2.0' });
  for await (const bucket of objects.paginateBuckets('x')) void bucket;
  const cluster = await central.getCluster('x');
  const subnet = await central.getSubnet('x');
  const stores = await objects.listObjectStores();
  return { image, task, enabled, upload, v2, cluster, subnet, stores };
}
`;

describe('hover', () => {
  it('shows the named types of the workflow results', () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['node'],
    };
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    host.readFile = (name) => (name === file ? probe : read(name));
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => name === file || exists(name);
    const getSource = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, ...rest) =>
      name === file ? ts.createSourceFile(name, probe, lang) : getSource(name, lang, ...rest);
    const program = ts.createProgram([file], options, host);
    const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
    expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    const checker = program.getTypeChecker();
    const shown: Record<string, string> = {};
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name))
        shown[node.name.text] = checker.typeToString(checker.getTypeAtLocation(node.name));
      ts.forEachChild(node, visit);
    };
    visit(program.getSourceFile(file)!);
    expect(shown).toMatchObject({
      image: 'CompleteImage',
      task: 'SucceededTask',
      enabled: 'EnabledServiceStatus',
      upload: 'ImageV0_8',
      v2: 'SucceededTaskV2_0',
      bucket: 'GroupEntity',
      cluster: 'Cluster',
      subnet: 'Subnet',
      stores: 'ObjectStoreListEntry[]',
    });
  });
});
