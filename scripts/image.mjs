// `npm run image`: builds the local svc's container image (packages/simulator/Containerfile) with
// podman, else docker: the packed simulator on an official Node base (by digest), a non-root user,
// port 9440, the volume /data, a health check and OCI labels. Prints the tag and the size.
//   npm run image -- [--tag svc-simulator:<version>] [--base <Node image>] [--engine podman|docker]
// Needs the bundles (`npm run build` first). --base replaces the Containerfile's Node base (any
// image with `node` of a supported line on PATH and glibc).
import { spawnSync } from 'node:child_process';
import { commandLine, knownNames, UsageError } from '@svc/args';
import { buildImage, simulatorPackage } from './lib/image.mjs';

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const USAGE = 'Usage: npm run image -- [--tag svc-simulator:<version>] [--base <Node image>] [--engine podman|docker]';
const { values } = commandLine('image', USAGE, {
  options: {
    tag: { type: 'string', default: `svc-simulator:${simulatorPackage().version}` },
    base: { type: 'string' },
    engine: {
      type: 'string',
      default: onPath('podman') || !onPath('docker') ? 'podman' : 'docker',
      check: (value) => {
        knownNames([value], ['podman', 'docker'], 'engine');
        if (!onPath(value)) throw new UsageError(`--engine ${value}: ${value} is not installed`);
        return value;
      },
    },
  },
});

const revision = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || undefined;
try {
  const { tag, bytes } = buildImage({
    engine: { command: values.engine },
    tag: values.tag,
    base: values.base,
    revision,
  });
  console.log(`image: ${tag}, ${(bytes / 1e6).toFixed(0)} MB`);
  console.log(`  ${values.engine} run -d -p 9440:9440 -v svc-data:/data -e SVC_SIM_PASSWORD=s3cret ${tag}`);
} catch (error) {
  console.error(`image: ${error.message}`);
  process.exit(1);
}
