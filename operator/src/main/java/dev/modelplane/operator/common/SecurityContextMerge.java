package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Merges a user's security context with the operator's defaults, field by field: every field the user set is kept
 * as given, the defaults fill the others. Three rules keep the result meaningful instead of contradictory:
 *
 * <ul>
 *   <li>{@code runAsUser: 0} without {@code runAsNonRoot} asks for root, so the default {@code runAsNonRoot: true}
 *       (which the kubelet would refuse to start with user 0) is left out; a container whose own {@code runAsUser} is 0
 *       gets {@code runAsNonRoot: false}, so the pod-level default does not stop it.</li>
 *   <li>A pod with {@code runAsNonRoot: false} runs as the image's user, so the default {@code runAsUser} and
 *       {@code runAsGroup} are left out too.</li>
 *   <li>Capabilities: the user's {@code add} is kept, {@code drop} is the user's list plus {@code ALL}. A capability
 *       the container needs is listed under {@code add} (added back after dropping). {@code privileged: true} or an
 *       added {@code SYS_ADMIN} leaves out the default {@code allowPrivilegeEscalation: false}, which the API server
 *       refuses together with either.</li>
 * </ul>
 *
 * <p>A result with {@code runAsNonRoot: false}, {@code runAsUser: 0}, {@code privileged: true}, an unconfined
 * seccomp profile or an added capability other than {@code NET_BIND_SERVICE} no longer meets the "restricted" Pod
 * Security Standard: these are the user's explicit opt-outs, which {@link WorkloadPolicy} refuses unless the
 * namespace is labelled {@code modelplane.dev/workload-policy=privileged}. The merge itself keeps them, so that the
 * policy sees what would really be applied.
 */
public final class SecurityContextMerge {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String RUN_AS_NON_ROOT = "runAsNonRoot";
  private static final String RUN_AS_USER = "runAsUser";

  private SecurityContextMerge() {
  }

  /** The pod context: {@code user} (may be null) over {@code defaults}. */
  public static PodSecurityContext pod(PodSecurityContext user, PodSecurityContext defaults) {
    Map<String, Object> own = map(user);
    Map<String, Object> base = map(defaults);
    if (asksForRoot(own)) {
      base.remove(RUN_AS_NON_ROOT);
    }
    if (Boolean.FALSE.equals(own.get(RUN_AS_NON_ROOT))) {
      base.remove(RUN_AS_USER);
      base.remove("runAsGroup");
    }
    base.putAll(own);
    return JSON.convertValue(base, PodSecurityContext.class);
  }

  /** The container context: {@code user} (may be null) over {@code defaults}. */
  public static SecurityContext container(SecurityContext user, SecurityContext defaults) {
    Map<String, Object> own = map(user);
    Map<String, Object> base = map(defaults);
    if (asksForRoot(own)) {
      // Root asked for in the container: the pod's runAsNonRoot would make the kubelet refuse it.
      base.put(RUN_AS_NON_ROOT, false);
    }
    if (Boolean.TRUE.equals(own.get("privileged")) || addsSysAdmin(user)) {
      base.remove("allowPrivilegeEscalation");
    }
    base.putAll(own);
    base.remove("capabilities");
    SecurityContext merged = JSON.convertValue(base, SecurityContext.class);
    merged.setCapabilities(capabilities(user == null ? null : user.getCapabilities(),
        defaults == null ? null : defaults.getCapabilities()));
    return merged;
  }

  /** The user's {@code add}; {@code drop} is the union of both lists. Null when both are empty. */
  static Capabilities capabilities(Capabilities user, Capabilities defaults) {
    List<String> add = new ArrayList<>(user == null || user.getAdd() == null ? List.of() : user.getAdd());
    List<String> drop = new ArrayList<>(user == null || user.getDrop() == null ? List.of() : user.getDrop());
    if (defaults != null && defaults.getDrop() != null) {
      for (String capability : defaults.getDrop()) {
        if (drop.stream().noneMatch(d -> d.equalsIgnoreCase(capability))) {
          drop.add(capability);
        }
      }
    }
    if (add.isEmpty() && drop.isEmpty()) {
      return null;
    }
    Capabilities out = new Capabilities();
    out.setAdd(add);
    out.setDrop(drop);
    return out;
  }

  private static boolean asksForRoot(Map<String, Object> own) {
    Object user = own.get(RUN_AS_USER);
    return user instanceof Number n && n.longValue() == 0 && !own.containsKey(RUN_AS_NON_ROOT);
  }

  private static boolean addsSysAdmin(SecurityContext user) {
    if (user == null || user.getCapabilities() == null || user.getCapabilities().getAdd() == null) {
      return false;
    }
    return user.getCapabilities().getAdd().stream().map(c -> c.toUpperCase(Locale.ROOT))
        .anyMatch(c -> c.equals("SYS_ADMIN") || c.equals("CAP_SYS_ADMIN"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object context) {
    if (context == null) {
      return new LinkedHashMap<>();
    }
    Map<String, Object> out = new LinkedHashMap<>(JSON.convertValue(context, Map.class));
    out.values().removeIf(v -> v == null || v instanceof List<?> l && l.isEmpty()
        || v instanceof Map<?, ?> m && m.isEmpty());
    return out;
  }
}
