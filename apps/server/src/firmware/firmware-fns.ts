import crypto from 'node:crypto';
import { FIRMWARE_IMAGE_MAX_BYTES } from '@meterportal/protocol';
import { InvalidRequest } from '../http/errors';
import type { MultipartFile } from '../http/multipart';

/** File name endings a firmware image may have. */
export const FIRMWARE_IMAGE_EXTENSIONS = ['.bin', '.hex', '.img', '.fw'] as const;

/** Why a firmware image is refused, or null when it is acceptable. */
export function imageProblem(file: Pick<MultipartFile, 'name' | 'bytes' | 'truncated'>): string | null {
  if (file.truncated || file.bytes.length > FIRMWARE_IMAGE_MAX_BYTES)
    return `File is too large, max allowed size is ${FIRMWARE_IMAGE_MAX_BYTES} bytes`;
  const name = file.name.toLowerCase();
  if (!FIRMWARE_IMAGE_EXTENSIONS.some((e) => name.endsWith(e)))
    return `File format not supported: a firmware image ends in ${FIRMWARE_IMAGE_EXTENSIONS.join(', ')}`;
  if (file.bytes.length === 0) return 'The firmware image is empty';
  if (file.name.length > 200) return 'The file name is longer than 200 characters';
  return null;
}

/** The image of a version registration (at most one file), checked, with its SHA-256. */
export function checkedImage(
  files: readonly MultipartFile[],
): { name: string; bytes: Buffer; sha256: string } | null {
  if (files.length > 1) throw new InvalidRequest('Invalid request: at most one firmware image per version');
  const file = files[0];
  if (!file) return null;
  const problem = imageProblem(file);
  if (problem) throw new InvalidRequest(problem);
  return {
    name: file.name,
    bytes: file.bytes,
    sha256: crypto.createHash('sha256').update(file.bytes).digest('hex'),
  };
}
