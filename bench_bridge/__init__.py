"""kgen bench bridge: task formats, backends (``sim`` emulator, ``npu``), verification, reports."""
