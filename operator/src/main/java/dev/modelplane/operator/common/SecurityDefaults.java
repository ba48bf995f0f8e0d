package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/** The container security context every generated container gets unless the user gave one. */
public final class SecurityDefaults {
  private SecurityDefaults() {
  }

  /** No privilege escalation, every capability dropped, the runtime's default seccomp profile. */
  public static SecurityContext container() {
    return new SecurityContextBuilder().withAllowPrivilegeEscalation(false)
        .withNewCapabilities().withDrop("ALL").endCapabilities()
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .build();
  }
}
