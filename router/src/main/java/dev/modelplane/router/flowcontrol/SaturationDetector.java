package dev.modelplane.router.flowcontrol;

import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.pool.EndpointState;
import java.util.List;

/** How full a set of endpoints is: 0 idle, ≥ 1.0 saturated. */
public interface SaturationDetector extends Plugin {
  double saturation(List<EndpointState> candidates);
}
