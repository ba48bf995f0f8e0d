package dev.modelplane.controlplane;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** The JUnit 5 extension behind {@link WithControlPlane}. */
public final class ControlPlaneExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
    ParameterResolver {
  private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(ControlPlaneExtension.class);

  /** One control plane per JVM, or the reason there is none. */
  private record Shared(ControlPlane controlPlane, String unavailable, boolean missingTools, AtomicBoolean warned)
      implements AutoCloseable {
    Shared(ControlPlane controlPlane, String unavailable, boolean missingTools) {
      this(controlPlane, unavailable, missingTools, new AtomicBoolean());
    }

    @Override
    public void close() {
      if (controlPlane != null) {
        controlPlane.close();
      }
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Shared shared = shared(context);
    if (shared.controlPlane() == null) {
      if (!shared.missingTools()) {
        // The binaries are there (or can be built) and still no control plane: that is a failure, never a skip.
        throw new IllegalStateException(shared.unavailable());
      }
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control plane: " + shared.unavailable());
      }
      if (!shared.warned().getAndSet(true)) {
        System.err.println("[modelplane] control-plane tests skipped: " + shared.unavailable());
      }
      Assumptions.abort("skipped: " + shared.unavailable());
    }
    ControlPlane.Component[] components = AnnotationSupport
        .findAnnotation(context.getRequiredTestClass(), WithControlPlane.class)
        .map(WithControlPlane::value).orElse(new ControlPlane.Component[0]);
    shared.controlPlane().enable(components);
  }

  private static Shared shared(ExtensionContext context) {
    return context.getRoot().getStore(STORE).computeIfAbsent(Shared.class, key -> startShared(), Shared.class);
  }

  private static Shared startShared() {
    try {
      if (ControlPlaneBinaries.find().isEmpty() && !ControlPlaneBinaries.goInstalled()) {
        return new Shared(null, ControlPlaneBinaries.missingMessage(), true);
      }
      ControlPlane controlPlane = ControlPlane.start();
      controlPlane.installCrds();
      return new Shared(controlPlane, null, false);
    } catch (IOException | RuntimeException e) {
      return new Shared(null, "the control plane did not start: " + e.getMessage(), false);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ControlPlane controlPlane = shared(context).controlPlane();
    String namespace = namespaceFor(context);
    // The name's random suffix can repeat that of an earlier invocation of the same method (a parameterized test
    // runs it many times) whose namespace is still being deleted: draw another.
    for (int attempt = 1; ; attempt++) {
      try {
        controlPlane.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
            .addToLabels("modelplane.dev/test", "true").endMetadata().build()).create();
        break;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 5) {
          throw e;
        }
        namespace = namespaceFor(context);
      }
    }
    context.getStore(STORE).put(KubeTest.class, new KubeTest(controlPlane, namespace));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    KubeTest test = context.getStore(STORE).remove(KubeTest.class, KubeTest.class);
    if (test != null) {
      test.cleanUp();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubeTest.class || type == KubernetesClient.class || type == ControlPlane.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == ControlPlane.class) {
      return shared(context).controlPlane();
    }
    KubeTest test = context.getStore(STORE).get(KubeTest.class, KubeTest.class);
    if (test == null) {
      throw new IllegalStateException(type.getSimpleName() + " is only available in test methods");
    }
    return type == KubeTest.class ? test : test.client();
  }

  /** A DNS-1123 namespace name from the test's class and method, with a random suffix. */
  static String namespaceFor(ExtensionContext context) {
    String base = context.getRequiredTestClass().getSimpleName() + "-"
        + context.getTestMethod().map(m -> m.getName()).orElse("all");
    String slug = base.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-")
        .replaceAll("-+", "-");
    String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36), 36);
    slug = slug.length() > 56 ? slug.substring(0, 56) : slug;
    return (slug.replaceAll("-$", "") + "-" + suffix);
  }
}
