package dev.modelplane.operator.modelsource.fetch;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Maps remote file names into the model directory, refusing any name that could land outside it or collide with the
 * downloader's own files: absolute paths, {@code ..}, empty or {@code .} segments, backslashes, control characters,
 * names inside {@value #STATE_DIR}, and a name that is another one's {@code .part} file.
 */
final class ModelPaths {
  /** Directory (inside the model directory) holding the verified-digest sidecars. */
  static final String STATE_DIR = ".modelplane-fetch";
  static final String PART_SUFFIX = ".part";

  private ModelPaths() {
  }

  /** Checks every name of a listing (so nothing is written when one is bad). */
  static void checkAll(List<RemoteFile> files, String source) throws FetchException {
    Set<String> names = new HashSet<>();
    for (RemoteFile file : files) {
      check(file.path(), source);
      if (!names.add(file.path())) {
        throw new FetchException(FetchException.Kind.INVALID, source + " lists '" + file.path() + "' twice");
      }
    }
    for (String name : names) {
      if (name.endsWith(PART_SUFFIX) && names.contains(name.substring(0, name.length() - PART_SUFFIX.length()))) {
        throw new FetchException(FetchException.Kind.INVALID, source + " lists both '" + name + "' and the file "
            + "whose partial download it would be; refused");
      }
    }
  }

  /** The file's place under {@code dir}, after {@link #check}. */
  static Path resolve(Path dir, String name) {
    return dir.resolve(name.replace('/', dir.getFileSystem().getSeparator().charAt(0))).normalize();
  }

  static void check(String name, String source) throws FetchException {
    String problem = problem(name);
    if (problem != null) {
      throw new FetchException(FetchException.Kind.INVALID, source + " lists a file named '" + printable(name)
          + "', which " + problem + "; refused");
    }
  }

  private static String problem(String name) {
    if (name.isEmpty()) {
      return "is empty";
    }
    if (name.startsWith("/") || name.matches("^[A-Za-z]:.*")) {
      return "is absolute";
    }
    if (name.indexOf('\\') >= 0) {
      return "contains a backslash";
    }
    if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return "contains a control character";
    }
    for (String segment : name.split("/", -1)) {
      if (segment.equals("..")) {
        return "climbs out of the model directory with '..'";
      }
      if (segment.isEmpty() || segment.equals(".")) {
        return "has an empty or '.' path segment";
      }
    }
    if (name.equals(STATE_DIR) || name.startsWith(STATE_DIR + "/")) {
      return "is inside the downloader's own " + STATE_DIR + " directory";
    }
    return null;
  }

  private static String printable(String name) {
    StringBuilder out = new StringBuilder();
    name.codePoints().limit(200).forEach(c -> {
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\x%02x", c));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }
}
