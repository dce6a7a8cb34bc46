// Packs every public package into .packs/ (after `npm run build`) and prints each tarball's
// files and sizes. Usage: node scripts/pack.mjs [folder]
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packAll, root } from './public-packages.mjs';

const destination = process.argv[2] ?? join(root, '.packs');
rmSync(destination, { recursive: true, force: true });
for (const packed of packAll(destination)) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(
    `${packed.name}@${packed.version}  ${relative(root, packed.tarball)}  ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked, ${packed.files.length} files`,
  );
  for (const file of packed.files) console.log(`  ${file}`);
}
