package dev.modelplane.controlplane;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real control plane shared by every test class of the JVM. Each test gets a fresh
 * namespace; parameters of type {@link KubeTest}, {@link io.fabric8.kubernetes.client.KubernetesClient} (bound to
 * that namespace) and {@link ControlPlane} are injected. The modelplane CRDs are installed.
 *
 * <p>Without the binaries and without Go, the tests are skipped with a message saying what to install — except under
 * {@code CI=true}, where a missing control plane fails them. A control plane that cannot start although its
 * binaries are there fails the tests everywhere.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(ControlPlaneExtension.class)
public @interface WithControlPlane {
  /** Components this class needs besides etcd and kube-apiserver; started on first use and kept for later classes. */
  ControlPlane.Component[] value() default {};
}
