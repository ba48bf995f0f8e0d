package dev.modelplane.router.extproc;

import java.util.Set;

/**
 * Which header changes an external endpoint picker may make to the request, as Envoy's ext_proc filter allows by
 * default, so a picker behaves the same behind this gateway as behind Envoy: any header may be set or removed
 * except Envoy-internal ones ({@code x-envoy-*}) and those that would re-route the request ({@code host},
 * {@code :authority}, {@code :scheme}, {@code :method}); of the pseudo-headers only {@code :path} may be set (it
 * becomes the upstream request's path and query), and no pseudo-header or {@code host} may be removed. Changes
 * outside these rules are ignored, as Envoy ignores them.
 */
final class HeaderMutationRules {
  /** The pseudo-header a picker may set: the upstream request's path (and query). */
  static final String PATH = ":path";
  private static final Set<String> ROUTING = Set.of("host", ":authority", ":scheme", ":method");

  private HeaderMutationRules() {
  }

  /** Whether a picker may set {@code name} (lower case). */
  static boolean maySet(String name) {
    if (name.isEmpty() || name.startsWith("x-envoy-") || ROUTING.contains(name)) {
      return false;
    }
    return !name.startsWith(":") || name.equals(PATH);
  }

  /** Whether a picker may remove {@code name} (lower case). */
  static boolean mayRemove(String name) {
    return !name.isEmpty() && !name.startsWith(":") && !name.equals("host") && !name.startsWith("x-envoy-");
  }
}
