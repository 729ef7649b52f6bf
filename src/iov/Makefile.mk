libarmci_la_SOURCES +=
