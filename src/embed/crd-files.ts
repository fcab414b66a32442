import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../api/types.js';

/** A CustomResourceDefinition read from disk, with where it came from for error messages. */
export interface CrdFromFile {
  readonly path: string;
  readonly crd: KubeObject;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every object in a manifest file: YAML documents (YAML 1.1, as kubectl reads them) or JSON, with List items expanded. */
function manifestObjects(source: string, path: string): Record<string, unknown>[] {
  let values: unknown[];
  if (extname(path).toLowerCase() === '.json') {
    try {
      values = [JSON.parse(source)];
    } catch (err) {
      throw new Error(`${path}: invalid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else {
    values = parseAllDocuments(source, { version: '1.1' }).map((doc, index) => {
      if (doc.errors.length > 0) throw new Error(`${path}: invalid YAML in document ${index + 1}: ${doc.errors[0]?.message ?? ''}`);
      return doc.toJS() as unknown;
    });
  }
  const objects: Record<string, unknown>[] = [];
  for (const value of values) {
    if (!isObject(value)) continue;
    if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items))
      objects.push(...value.items.filter(isObject));
    else objects.push(value);
  }
  return objects;
}

function crdsIn(path: string, source: string): CrdFromFile[] {
  const crds: CrdFromFile[] = [];
  for (const obj of manifestObjects(source, path)) {
    if (obj.kind !== 'CustomResourceDefinition') continue;
    if (obj.apiVersion !== 'apiextensions.k8s.io/v1') {
      throw new Error(
        `${path}: ${String(obj.apiVersion)} CustomResourceDefinition is not served by Kubernetes v1.32; use apiextensions.k8s.io/v1`,
      );
    }
    crds.push({ path, crd: obj as KubeObject });
  }
  return crds;
}

async function readManifest(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read CRD file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Reads the CRDs in each path: a file, or a directory whose .yaml/.yml/.json files are read (not recursively),
 * like envtest's CRD directories. Other kinds of objects are skipped (a kustomization next to the CRDs is fine),
 * but a path that yields no CRD at all is an error: it is almost certainly the wrong path.
 */
export async function readCrdFiles(paths: readonly string[]): Promise<CrdFromFile[]> {
  const result: CrdFromFile[] = [];
  for (const given of paths) {
    const path = resolve(given);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch (err) {
      throw new Error(`cannot read CRD path ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const files = isDirectory
      ? (await readdir(path))
          .filter((name) => MANIFEST_EXTENSIONS.has(extname(name).toLowerCase()))
          .sort()
          .map((name) => join(path, name))
      : [path];
    const found: CrdFromFile[] = [];
    for (const file of files) found.push(...crdsIn(file, await readManifest(file)));
    if (found.length === 0) {
      throw new Error(
        isDirectory
          ? `${path}: no CustomResourceDefinition in any .yaml, .yml or .json file of this directory`
          : `${path}: no CustomResourceDefinition in this file`,
      );
    }
    result.push(...found);
  }
  return result;
}
