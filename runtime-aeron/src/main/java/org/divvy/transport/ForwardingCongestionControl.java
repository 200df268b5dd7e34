package org.divvy.transport;

import java.net.InetSocketAddress;

import io.aeron.driver.CongestionControl;

/**
 * A driver congestion control that passes every call to another: the base of the transport's wrappers
 * ({@link ReceiveGuard}'s image tracking, {@link ReceiverWindow}'s cap), which override only what they change.
 */
abstract class ForwardingCongestionControl implements CongestionControl {
    private final CongestionControl delegate;

    ForwardingCongestionControl(final CongestionControl delegate) {
        this.delegate = delegate;
    }

    @Override
    public boolean shouldMeasureRtt(final long nowNs) {
        return delegate.shouldMeasureRtt(nowNs);
    }

    @Override
    public void onRttMeasurementSent(final long nowNs) {
        delegate.onRttMeasurementSent(nowNs);
    }

    @Override
    public void onRttMeasurement(final long nowNs, final long rttNs, final InetSocketAddress srcAddress) {
        delegate.onRttMeasurement(nowNs, rttNs, srcAddress);
    }

    @Override
    public long onTrackRebuild(final long nowNs, final long newConsumptionPosition, final long lastSmPosition,
        final long hwmPosition, final long startingRebuildPosition, final long endingRebuildPosition,
        final boolean lossOccurred) {
        return delegate.onTrackRebuild(nowNs, newConsumptionPosition, lastSmPosition, hwmPosition,
            startingRebuildPosition, endingRebuildPosition, lossOccurred);
    }

    @Override
    public int initialWindowLength() {
        return delegate.initialWindowLength();
    }

    @Override
    public int maxWindowLength() {
        return delegate.maxWindowLength();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
