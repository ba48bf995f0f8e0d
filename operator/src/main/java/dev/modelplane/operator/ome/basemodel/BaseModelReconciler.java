package dev.modelplane.operator.ome.basemodel;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.time.Clock;

/** OME BaseModels (namespaced); finalizer {@code basemodels.ome.io/finalizer}. */
@ControllerConfiguration(name = BaseModelReconciler.NAME)
public class BaseModelReconciler extends BaseModelController<BaseModel> {
  public static final String NAME = "ome-basemodel";

  public BaseModelReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    super(settings, events, clock, BaseModel.class, BaseModel::new);
  }
}
