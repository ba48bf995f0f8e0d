package dev.modelplane.operator.ome.modelagent;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An OCI SDK/CLI configuration file ({@code ~/.oci/config}): INI sections named after profiles with
 * {@code key=value} lines ({@code user}, {@code fingerprint}, {@code key_file}, {@code tenancy}, {@code region},
 * {@code pass_phrase}, {@code security_token_file}); {@code #} and {@code ;} start comments. A profile other than
 * {@code DEFAULT} takes the values it lacks from {@code DEFAULT}, as the OCI CLI does.
 */
final class OciConfigFile {
  /** The profile read when none is named. */
  static final String DEFAULT_PROFILE = "DEFAULT";

  private final Map<String, Map<String, String>> profiles;

  private OciConfigFile(Map<String, Map<String, String>> profiles) {
    this.profiles = profiles;
  }

  static OciConfigFile parse(String text) {
    Map<String, Map<String, String>> profiles = new LinkedHashMap<>();
    Map<String, String> current = null;
    for (String raw : text.split("\r?\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        current = profiles.computeIfAbsent(line.substring(1, line.length() - 1).strip(), p -> new HashMap<>());
        continue;
      }
      int eq = line.indexOf('=');
      if (current != null && eq > 0) {
        current.put(line.substring(0, eq).strip().toLowerCase(Locale.ROOT), line.substring(eq + 1).strip());
      }
    }
    return new OciConfigFile(profiles);
  }

  /** The values of a profile (with {@code DEFAULT}'s underneath), or empty when the file has no such profile. */
  Optional<Map<String, String>> profile(String name) {
    Map<String, String> own = profiles.get(name);
    if (own == null) {
      return Optional.empty();
    }
    Map<String, String> merged = new HashMap<>(profiles.getOrDefault(DEFAULT_PROFILE, Map.of()));
    merged.putAll(own);
    return Optional.of(merged);
  }
}
