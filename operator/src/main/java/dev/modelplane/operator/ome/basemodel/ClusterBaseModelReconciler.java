package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.time.Clock;

/** OME ClusterBaseModels (cluster-scoped); finalizer {@code clusterbasemodels.ome.io/finalizer}. */
@ControllerConfiguration(name = ClusterBaseModelReconciler.NAME)
public class ClusterBaseModelReconciler extends BaseModelController<ClusterBaseModel> {
  public static final String NAME = "ome-clusterbasemodel";

  public ClusterBaseModelReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    super(settings, events, clock, ClusterBaseModel.class, ClusterBaseModel::new);
  }
}
