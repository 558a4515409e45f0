from typing import Any, ClassVar, Optional, Sequence, Tuple

__all__ = ["BatchAECEnv", "HexEnv", "HavannahEnv"]

AGENTS: Tuple[str, str]

# The base class is pettingzoo.AECEnv when PettingZoo is installed.
_AECEnv: Any

class BatchAECEnv(_AECEnv):
    metadata: ClassVar[dict[str, Any]]
    batch: Any
    possible_agents: list[str]
    agents: list[str]
    render_mode: Optional[str]
    observation_spaces: dict[str, Any]
    action_spaces: dict[str, Any]
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str
    def __init__(self, batch: Any, planes: Sequence[str]) -> None: ...
    def observation_space(self, agent: str) -> Any: ...
    def action_space(self, agent: str) -> Any: ...
    def reset(self, seed: Optional[int] = ..., options: Optional[dict[str, Any]] = ...) -> None: ...
    def observe(self, agent: str) -> dict[str, Any]: ...
    def step(self, action: Optional[int]) -> None: ...
    def render(self) -> None: ...
    def close(self) -> None: ...

class HexEnv(BatchAECEnv):
    def __init__(self, size: int = ..., *, cols: Optional[int] = ..., swap: bool = ...,
                 seed: Optional[int] = ..., illegal: str = ...) -> None: ...

class HavannahEnv(BatchAECEnv):
    def __init__(self, base: int = ..., *, rule: str = ..., swap: bool = ...,
                 seed: Optional[int] = ..., illegal: str = ...) -> None: ...
