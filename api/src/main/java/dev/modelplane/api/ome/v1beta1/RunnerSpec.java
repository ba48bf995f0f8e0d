package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Container;

/**
 * The main container of a component: image, command, args, env, resources, probes and so on, with the fields of a
 * Kubernetes container at the top level. It is merged with the pod's container of the same name (the runner's
 * values win and its args are appended); when no container has that name it is added. In a runtime's engine,
 * decoder or router the name is required; in an InferenceService it may be left out to override the runtime's
 * main container.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.CONTAINER_LISTS)
public final class RunnerSpec extends Container {
  /** Creates an empty runner. */
  public RunnerSpec() {
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof RunnerSpec;
  }

  @Override
  public String toString() {
    return "RunnerSpec(" + super.toString() + ")";
  }
}
