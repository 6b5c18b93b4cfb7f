"""What every game shares: rules contract, AEC adapter, wrappers, the drive loop, single-agent env."""
