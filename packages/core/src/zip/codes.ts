/**
 * Codes found while reading a ZIP (decisions §4): `archive.*` for the archive itself, `names.*`
 * for paths that could escape or collide when written anywhere, `limits.*` for sizes and counts.
 * A refused entry never reaches the folder. The folder checks reuse the `names.*` and `limits.*`
 * codes for the same defects (one defect, one code), so the texts speak of paths and files.
 */
export const zipCodes = {
  'archive.not_zip': {
    message: 'The file is not a ZIP archive.',
    suggestion: 'Upload the folder as a .zip file.',
  },
  'archive.truncated': {
    message: 'The archive ends before its data does; it is truncated.',
    suggestion: 'Download or create the archive again.',
  },
  'archive.corrupt': {
    message: 'The archive is damaged: a record or compressed stream cannot be read.',
    suggestion: 'Create the archive again with a standard ZIP tool.',
  },
  'archive.crc_mismatch': {
    message: 'The CRC-32 of the unpacked entry differs from the one the archive records.',
    suggestion: 'The entry is damaged; create the archive again.',
  },
  'archive.size_mismatch': {
    message: 'The entry unpacks to a different size than the archive declares.',
    suggestion: 'Create the archive again with a standard ZIP tool.',
  },
  'archive.header_mismatch': {
    message: 'The local header of the entry disagrees with its central directory record.',
    suggestion: 'Create the archive again with a standard ZIP tool.',
  },
  'archive.overlapping_entries': {
    message: 'The entry shares bytes with another entry or with the central directory.',
    suggestion: 'Overlapping entries are a zip-bomb technique; create the archive again.',
  },
  'archive.data_before_archive': {
    message: 'The file has data before the archive (for example a self-extracting program).',
    suggestion: 'Upload a plain .zip file.',
  },
  'archive.data_after_archive': {
    message: 'The file has data after the end of the archive.',
    suggestion: 'Upload a plain .zip file.',
  },
  'archive.multi_disk': {
    message: 'The archive is split over several disks or parts.',
    suggestion: 'Join the parts into a single .zip file.',
  },
  'archive.encrypted': {
    message: 'The entry is encrypted.',
    suggestion: 'Create the archive again without a password.',
  },
  'archive.unsupported_method': {
    message: 'The entry uses a compression method other than stored or deflate.',
    suggestion: 'Create the archive again with the standard (deflate) compression.',
  },
  'archive.special_entry': {
    message: 'The entry is a symbolic link or another special file, not a regular file.',
    suggestion: 'Replace links with the files they point to.',
  },
  'names.traversal': {
    message: 'The path has a ".." segment that leads outside the folder.',
    suggestion: 'Use paths inside the folder only.',
  },
  'names.absolute': {
    message: 'The path is absolute.',
    suggestion: 'Use paths relative to the folder root.',
  },
  'names.backslash': {
    message: 'The path contains a backslash.',
    suggestion: 'Separate folders with "/".',
  },
  'names.drive_letter': {
    message: 'The path starts with a drive letter.',
    suggestion: 'Use paths relative to the folder root.',
  },
  'names.control_character': {
    message: 'The path contains a control character.',
    suggestion: 'Rename the file with visible characters only.',
  },
  'names.not_canonical': {
    message: 'The path is empty or has empty or "." segments.',
    suggestion: 'Use plain paths such as "images/logo.png".',
  },
  'names.encoding': {
    message: 'The archive flags the path as UTF-8 but it is not valid UTF-8.',
    suggestion: 'Create the archive again with a tool that writes UTF-8 names.',
  },
  'names.duplicate': {
    message:
      'Another file has the same path (compared after Unicode NFC and case folding), or the path is both a file and a folder.',
    suggestion: 'Keep one file per path, ignoring letter case.',
  },
  'limits.archive_size': {
    message: 'The archive is larger than allowed.',
    suggestion: 'Remove large or unused files.',
  },
  'limits.total_size': {
    message: 'The files together are larger than allowed.',
    suggestion: 'Remove large or unused files.',
  },
  'limits.entries': {
    message: 'There are more files (archive entries) than allowed.',
    suggestion: 'Remove unused files.',
  },
  'limits.file_size': {
    message: 'The file is larger than allowed.',
    suggestion: 'Make the file smaller or remove it.',
  },
  'limits.ratio': {
    message: 'The entry is compressed more than allowed, as zip bombs are.',
    suggestion: 'Remove the file, or store it with less compression.',
  },
} as const;
export type ZipCode = keyof typeof zipCodes;
