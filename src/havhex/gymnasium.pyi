from typing import Any, Optional, Tuple, Union

__all__ = ["BatchVectorEnv", "HexVectorEnv", "HavannahVectorEnv", "register", "ENV_IDS"]

ENV_IDS: Tuple[str, str]

# The base class is gymnasium.vector.VectorEnv when Gymnasium is installed.
_VectorEnv: Any

class BatchVectorEnv(_VectorEnv):
    batch: Any
    copy: bool
    num_envs: int
    metadata: dict[str, Any]
    render_mode: Optional[str]
    single_observation_space: Any
    single_action_space: Any
    observation_space: Any
    action_space: Any
    def __init__(self, batch: Any, *, copy: bool = ...) -> None: ...
    def reset(self, *, seed: Optional[int] = ...,
              options: Optional[dict[str, Any]] = ...) -> Tuple[Any, dict[str, Any]]: ...
    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, dict[str, Any]]: ...

class HexVectorEnv(BatchVectorEnv):
    def __init__(self, num_envs: int = ..., size: int = ..., *, cols: Optional[int] = ...,
                 swap: bool = ..., seed: Optional[int] = ..., threads: int = ...,
                 autoreset: Union[str, Any] = ..., illegal: str = ...,
                 copy: bool = ...) -> None: ...

class HavannahVectorEnv(BatchVectorEnv):
    def __init__(self, num_envs: int = ..., base: int = ..., *, rule: str = ...,
                 swap: bool = ..., seed: Optional[int] = ..., threads: int = ...,
                 autoreset: Union[str, Any] = ..., illegal: str = ...,
                 copy: bool = ...) -> None: ...

def register() -> None: ...
